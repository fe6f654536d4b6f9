import type { SeedWriter } from './seed-writer.js';

/** What the transactions of a company draw on. */
export interface MasterData {
  readonly customers: readonly { code: string; name: string; payDeal: string }[];
  readonly suppliers: readonly string[];
  readonly items: readonly {
    code: string;
    name: string;
    price: string;
    inPrice: string;
    vat: string;
    serial: boolean;
  }[];
  readonly employees: readonly string[];
}

const ACCOUNTS: [string, string, string, string][] = [
  ['1000', 'Cash', '0', ''],
  ['1200', 'Bank', '0', ''],
  ['1400', 'Inventory', '0', ''],
  ['1500', 'Accounts receivable', '0', ''],
  ['2440', 'Accounts payable', '1', ''],
  ['2610', 'Output VAT', '1', ''],
  ['2640', 'Input VAT', '0', ''],
  ['3000', 'Sales of goods', '3', '1'],
  ['3010', 'Sales of services', '3', '1'],
  ['4000', 'Purchases of goods', '4', '1'],
  ['4010', 'Cost of goods sold', '4', ''],
  ['5000', 'Wages', '4', ''],
  ['6000', 'Rent', '4', '1'],
  ['6100', 'Office supplies', '4', '1'],
  ['6200', 'Travel', '4', '2'],
  ['7000', 'Interest', '4', '0'],
];
const FIRST = ['Anna', 'Mart', 'Liis', 'Jaan', 'Kati', 'Peeter', 'Eva', 'Toomas', 'Maria', 'Andres'];
const LAST = ['Tamm', 'Saar', 'Sepp', 'Mägi', 'Kask', 'Kukk', 'Rebane', 'Ilves', 'Lepik', 'Koppel'];
const FIRMS = ['Northwind', 'Baltic', 'Harbour', 'Granite', 'Linden', 'Aurora', 'Meadow', 'Falcon', 'Cedar', 'Amber'];
const KINDS = ['Trading', 'Logistics', 'Foods', 'Systems', 'Textiles', 'Engineering'];
const ADJ = ['Steel', 'Oak', 'Blue', 'Compact', 'Heavy', 'Smart', 'Classic', 'Eco', 'Mini', 'Pro'];
const NOUN = ['Chair', 'Desk', 'Lamp', 'Cable', 'Bolt', 'Panel', 'Filter', 'Valve', 'Router', 'Shelf', 'Drill', 'Pump'];
const CITIES: [string, string][] = [
  ['Tallinn', 'EE'],
  ['Tartu', 'EE'],
  ['Riga', 'LV'],
  ['Helsinki', 'FI'],
  ['Vilnius', 'LT'],
];

/** Master data of one company: accounts, terms, classes, items, price lists, contacts, people. */
export function seedMaster(w: SeedWriter, prefix: string): MasterData {
  const r = w.rng;
  for (const [acc, name, type, vat] of ACCOUNTS) {
    w.add('AccVc', { AccNumber: acc, Comment: name, AccType: type, VATCode: vat, blockedFlag: '0' }, [
      { LangCode: 'ENG', Text: name },
    ]);
  }
  for (const [code, comment, ot] of [
    ['DEP1', 'Sales department', 'DEP'],
    ['DEP2', 'Administration', 'DEP'],
    ['PRJ1', 'Project Alpha', 'PRJ'],
    ['PRJ2', 'Project Beta', 'PRJ'],
  ] as const) {
    w.add('ObjVc', { Code: code, Comment: comment, OTCode: ot, MultiYear: '0', TerminateFlag: '0', AutoObjects: '' });
  }
  for (const [code, type, days, comment] of [
    ['0', '1', '0', 'Cash'],
    ['14', '0', '14', '14 days net'],
    ['30', '0', '30', '30 days net'],
    ['K', '3', '0', 'Credit note'],
  ] as const) {
    w.add('PDVc', { Code: code, PDType: type, pdays: days, pdvrebt: '0', pdrdays: '0', pdComment: comment });
  }
  w.add('CCatVc', { Code: 'DOM', Comment: 'Domestic customers', PLCode: '', ARAcc: '1500', ClassType: '1' });
  w.add('CCatVc', { Code: 'EXP', Comment: 'Export customers', PLCode: 'EXP', ARAcc: '1500', ClassType: '2' });
  w.add('CCatVc', { Code: 'VIP', Comment: 'Key accounts', PLCode: 'VIP', ARAcc: '1500', ClassType: '1' });
  w.add('ITVc', { Code: 'GOODS', Comment: 'Goods', CostAcc: '4010', InvAcc: '1400', SalesAcc: '3000' });
  w.add('ITVc', { Code: 'SERV', Comment: 'Services', CostAcc: '4010', InvAcc: '', SalesAcc: '3010' });
  for (let i = 1; i <= 4; i++) w.add('DIVc', { Code: `DI${i}`, Name: `Classifier ${i}`, CType: String(i % 2) });

  const items: { code: string; name: string; price: string; inPrice: string; vat: string; serial: boolean }[] = [];
  for (let i = 1; i <= 60; i++) {
    const code = `A${String(i).padStart(4, '0')}`;
    const service = i % 10 === 0;
    const price = r.amount(5, 500);
    const inPrice = (Number(price) * 0.6).toFixed(2);
    const vat = i % 7 === 0 ? '2' : '1';
    const name = `${prefix}${r.pick(ADJ)} ${service ? 'Service' : r.pick(NOUN)} ${i}`;
    w.add(
      'INVc',
      {
        Code: code,
        Name: name,
        Unittext: service ? 'h' : 'pcs',
        UPrice1: price,
        InPrice: inPrice,
        ItemType: service ? '0' : '1',
        Group: service ? 'SERV' : 'GOODS',
        VATCode: vat,
        Objects: '',
        Weight: service ? '' : (r.int(1, 5000) / 100).toFixed(2),
        Volume: '',
        Terminated: '0',
        BarCode: `47${String(1000000000 + i * 7919).slice(0, 11)}`,
      },
      i <= 3 ? [{ LangCode: 'EST', Text: `${name} (et)` }] : [],
    );
    items.push({ code, name, price, inPrice, vat, serial: i <= 5 });
    w.add('PLVc', { PLCode: 'VIP', ArtCode: code, ExVatPrice: (Number(price) * 0.9).toFixed(2), Comment: '' });
    if (i % 3 === 0)
      w.add('PLVc', { PLCode: 'EXP', ArtCode: code, ExVatPrice: (Number(price) * 0.95).toFixed(2), Comment: '' });
  }

  const customers: { code: string; name: string; payDeal: string }[] = [];
  const suppliers: string[] = [];
  for (let i = 1; i <= 40; i++) {
    const code = `C${String(i).padStart(4, '0')}`;
    const supplier = i > 30;
    const [city, country] = r.pick(CITIES);
    const payDeal = supplier ? '30' : r.pick(['14', '30', '14', '0']);
    const name = `${prefix}${r.pick(FIRMS)} ${r.pick(KINDS)} ${i}`;
    w.add('CUVc', {
      Code: code,
      Name: name,
      InvAddr0: `${r.int(1, 120)} ${r.pick(LAST)} Street`,
      InvAddr1: city,
      InvAddr2: `${r.int(10000, 99999)}`,
      DelAddr0: `${r.int(1, 120)} Harbour Road`,
      DelAddr1: city,
      PayDeal: payDeal,
      VATNr: `${country}${100000000 + i * 37}`,
      RegNr1: String(10000000 + i * 131),
      CountryCode: country,
      CurncyCode: 'EUR',
      CreditLimit: String(r.int(1, 50) * 1000),
      Classification: supplier ? '' : r.pick(['DOM', 'DOM', 'EXP', 'VIP']),
      IBANCode: `${country}${String(10 + i).padStart(2, '0')}2200${String(221000000000 + i).padStart(12, '0')}`,
      DateCreated: '2023-12-01',
      CUType: supplier ? '0' : '1',
      VEType: supplier ? '1' : '0',
      eMail: `info@${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example`,
      Phone: `+372 5${String(100000 + i * 97).slice(0, 6)}`,
      SalesMan: supplier ? '' : r.pick(['JD', 'MK']),
      // observed fields (specs/observed-fields.yaml); fixed values, so the random draws above stay as they were
      CustType: supplier ? '1' : '0',
      blockedFlag: '0',
    });
    if (supplier) suppliers.push(code);
    else customers.push({ code, name, payDeal });
  }
  for (let i = 1; i <= 8; i++) {
    const cust = customers[i - 1]!.code;
    w.add('DelAddrVc', {
      CustCode: cust,
      DelCode: 'WH',
      Name: 'Warehouse',
      DelAddr0: `${r.int(1, 99)} Depot Lane`,
      DelAddr1: r.pick(CITIES)[0],
      Region: 'North',
      Contact: `${r.pick(FIRST)} ${r.pick(LAST)}`,
      Phone: '+372 600 0000',
      Email: 'warehouse@example.com',
      DelCountry: 'EE',
    });
    w.add('ContactRelVc', {
      CustCode: cust,
      CustName: '',
      ContactCode: suppliers[i % suppliers.length]!,
      ContactName: '',
      StartDate: '2024-01-01',
      EndDate: '',
      Invalid: '0',
    });
  }
  for (const [code, name, group] of [
    ['ERPCERT', 'erpcert test user', 'ADMIN'],
    ['ADMIN', 'Administrator', 'ADMIN'],
    ['JD', 'Jaan Tamm', 'SALES'],
    ['MK', 'Maria Kask', 'SALES'],
  ] as const) {
    w.add('UserVc', { Code: code, Name: name, AccessGroup: group, Closed: '0', LangCode: 'ENG', emailAddr: '' });
  }
  const employees: string[] = [];
  for (let i = 1; i <= 8; i++) {
    const code = `E${String(i).padStart(3, '0')}`;
    employees.push(code);
    w.add(
      'EmplVc',
      {
        Code: code,
        Firstname: r.pick(FIRST),
        Surname: r.pick(LAST),
        IDCode: String(38000000000 + i * 1013),
        BankAccount: `EE${String(382200221000000000 + i)}`,
        BirthDate: `19${r.int(60, 99)}-0${r.int(1, 9)}-1${r.int(0, 9)}`,
        Mail: `${code.toLowerCase()}@example.com`,
        UserCode: i === 1 ? 'JD' : i === 2 ? 'MK' : '',
        LangCode: 'EST',
        TaxCode: 'TM',
      },
      [{ TaxCode: 'TM', SDate: '2024-01-01', EDate: '', TaxName: 'Income tax' }],
    );
  }
  w.add('StaffVc', {
    Code: 'QTY',
    Comment: 'Quantity scale',
    StaffType: '0',
    ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`Lim${i + 1}`, String((i + 1) * 10)])),
  });
  w.add('RebVc', {
    Code: 'SPRING',
    Comment: 'Spring campaign',
    StaffCode: 'QTY',
    DiscPerc: '5',
    FromDate: '2024-03-01',
    ToDate: '2024-05-31',
  });
  for (const [acc, obj] of [
    ['3000', ''],
    ['3010', ''],
    ['6000', 'DEP2'],
  ] as const) {
    w.add(
      'Bud1Vc',
      {
        AccNumber: acc,
        Objects: obj,
        BFCode: 'B2024',
        YearVal: '',
        StartDate: '2024-01-01',
        EndDate: '2024-12-31',
        OKFlag: '1',
      },
      Array.from({ length: 12 }, (_, m) => ({
        BudDate: `2024-${String(m + 1).padStart(2, '0')}-01`,
        sval: r.amount(1000, 9000),
      })),
    );
  }
  w.add('FBVc', { SerNr: '10000001', TransDate: '2024-01-01' }, [
    { AccNumber: '1200', DebVal: '25000.00', CredVal: '' },
    { AccNumber: '1400', DebVal: '15000.00', CredVal: '' },
    { AccNumber: '2440', DebVal: '', CredVal: '40000.00' },
  ]);
  return { customers, suppliers, items, employees };
}
