import type { MasterData } from './demo-master.js';
import { seedOtherTransactions } from './demo-other.js';
import { type SeedWriter, seedDate } from './seed-writer.js';

/** How many records of each transaction register a company gets for size n (README "Demo data"). */
export function transactionCounts(n: number): Record<string, number> {
  const part = (d: number, min = 1) => (n === 0 ? 0 : Math.max(min, Math.ceil(n / d)));
  return {
    TRVc: n,
    IVVc: part(10, 3),
    ORVc: part(20),
    QTVc: part(20),
    POVc: part(40),
    PUVc: part(40, 5),
    VIVc: part(20),
    IPVc: part(20),
    OPVc: part(40),
    ExpVc: part(50),
    StockMovVc: part(100),
    SDVc: part(100),
    COVc: part(100),
    GCVc: part(100),
    WorkedHoursVc: part(100),
    AbsenceVc: part(200),
    OpenTransVc: part(200),
  };
}

const TR_PAIRS: [string, string, string][] = [
  ['6000', '1200', 'Rent'],
  ['6100', '1000', 'Office supplies'],
  ['1200', '1500', 'Customer payment'],
  ['2440', '1200', 'Supplier payment'],
  ['5000', '1200', 'Wages'],
  ['1400', '2440', 'Goods received'],
  ['6200', '1000', 'Travel'],
];

/** Transactions of one company, scaled by n: journal entries, invoices, orders, payments, stock, payroll. */
export function seedTransactions(w: SeedWriter, m: MasterData, n: number): void {
  const r = w.rng;
  const count = transactionCounts(n);
  const serNr = (i: number) => String(10000001 + i);

  // journal entries: two balanced rows, dates spread over two years, numbers per year
  const perYear = new Map<string, number>();
  for (let i = 0; i < count.TRVc!; i++) {
    const date = seedDate(Math.floor((i * 730) / Math.max(1, n)));
    const year = date.slice(0, 4);
    const number = (perYear.get(year) ?? 0) + 1;
    perYear.set(year, number);
    const [deb, cred, text] = r.pick(TR_PAIRS);
    const sum = r.amount(10, 5000);
    w.add('TRVc', { IntYc: year, Number: String(number), RegDate: date, TransDate: date }, [
      { stp: '1', AccNumber: deb, DebVal: sum, CredVal: '', Comment: text, Curncy: '' },
      { stp: '1', AccNumber: cred, DebVal: '', CredVal: sum, Comment: text, Curncy: '' },
    ]);
  }

  // purchase deliveries first, so that stock exists; serial-tracked items get serial numbers
  for (let i = 0; i < count.PUVc!; i++) {
    const rows: Record<string, string>[] = Array.from({ length: r.int(1, 3) }, () => {
      const item = r.pick(m.items.filter((it) => !it.serial));
      return { ArtCode: item.code, Quant: String(r.int(20, 60)), UPrice: item.inPrice };
    });
    const serialItem = m.items[i % 5]!;
    rows.push({
      ArtCode: serialItem.code,
      Quant: '1',
      UPrice: serialItem.inPrice,
      SerialNr: `SN-${serialItem.code}-${i + 1}`,
    });
    const date = seedDate(i);
    w.add(
      'PUVc',
      {
        SerNr: serNr(i),
        RegDate: date,
        TransDate: date,
        VECode: r.pick(m.suppliers),
        Location: 'MAIN',
        OKFlag: '1',
        CurncyCode: 'EUR',
      },
      rows,
    );
  }

  // sales invoices: 80 % confirmed; every 25th is a credit invoice of the one before (rule 4)
  const invoices: {
    serNr: string;
    cust: string;
    name: string;
    item: string;
    vat: string;
    price: string;
    sum4: string;
    ok: boolean;
  }[] = [];
  for (let i = 0; i < count.IVVc!; i++) {
    const date = seedDate(Math.floor((i * 700) / count.IVVc!));
    const prev = invoices[invoices.length - 1];
    if (i % 25 === 24 && prev?.ok) {
      const rec = w.add(
        'IVVc',
        {
          SerNr: serNr(i),
          InvDate: date,
          TransDate: date,
          PayDate: date,
          CustCode: prev.cust,
          Addr0: prev.name,
          PayDeal: 'K',
          CurncyCode: 'EUR',
          InvType: '3',
          OKFlag: '1',
          Location: 'MAIN',
        },
        [
          { stp: '3', OrdRow: prev.serNr, Spec: `Credit of invoice ${prev.serNr}` },
          { stp: '1', ArtCode: prev.item, Quant: '1', Price: prev.price, VATCode: prev.vat, SalesAcc: '3000' },
        ],
      );
      invoices.push({
        serNr: serNr(i),
        cust: prev.cust,
        name: prev.name,
        item: prev.item,
        vat: prev.vat,
        price: prev.price,
        sum4: rec.fields.Sum4 ?? '',
        ok: true,
      });
      continue;
    }
    const cust = r.pick(m.customers);
    const rows = Array.from({ length: r.int(1, 3) }, () => {
      const item = r.pick(m.items.filter((it) => !it.serial));
      return {
        stp: '1',
        ArtCode: item.code,
        Quant: String(r.int(1, 5)),
        Price: item.price,
        VATCode: item.vat,
        SalesAcc: '3000',
        Spec: item.name,
      };
    });
    const ok = i % 5 !== 4;
    const due = seedDate(Math.floor((i * 700) / count.IVVc!) + Number(cust.payDeal));
    const rec = w.add(
      'IVVc',
      {
        SerNr: serNr(i),
        InvDate: date,
        TransDate: date,
        PayDate: due,
        CustCode: cust.code,
        Addr0: cust.name,
        PayDeal: cust.payDeal,
        CurncyCode: 'EUR',
        InvType: '1',
        ARAcc: '1500',
        OKFlag: ok ? '1' : '0',
        Location: 'MAIN',
        InvoiceNr: String(i + 1),
        OfficialSerNr: `INV-${i + 1}`,
      },
      rows,
    );
    invoices.push({
      serNr: serNr(i),
      cust: cust.code,
      name: cust.name,
      item: rows[0]!.ArtCode,
      vat: rows[0]!.VATCode,
      price: rows[0]!.Price,
      sum4: rec.fields.Sum4 ?? '',
      ok,
    });
  }

  for (let i = 0; i < count.ORVc!; i++) {
    const cust = r.pick(m.customers);
    const item = r.pick(m.items);
    w.add(
      'ORVc',
      {
        SerNr: serNr(i),
        OrdDate: seedDate(i * 3),
        CustCode: cust.code,
        PayDeal: cust.payDeal,
        OrderStatus: '0',
        PlanShip: seedDate(i * 3 + 7),
        CurncyCode: 'EUR',
        OKFlag: i % 2 ? '1' : '0',
        Location: 'MAIN',
      },
      [
        {
          stp: '1',
          ArtCode: item.code,
          Quant: String(r.int(1, 4)),
          Price: item.price,
          VATCode: item.vat,
          SalesAcc: '3000',
          Spec: item.name,
        },
      ],
    );
  }
  for (let i = 0; i < count.QTVc!; i++) {
    const cust = r.pick(m.customers);
    const item = r.pick(m.items);
    w.add(
      'QTVc',
      {
        SerNr: serNr(i),
        QTDate: seedDate(i * 3),
        CustCode: cust.code,
        PayDeal: cust.payDeal,
        CurncyCode: 'EUR',
        ValidUntilDate: seedDate(i * 3 + 30),
      },
      [{ stp: '1', ArtCode: item.code, Quant: String(r.int(1, 10)), Price: item.price, VATCode: '1' }],
    );
  }
  for (let i = 0; i < count.POVc!; i++) {
    const item = r.pick(m.items);
    w.add(
      'POVc',
      {
        SerNr: serNr(i),
        VECode: r.pick(m.suppliers),
        TransDate: seedDate(i * 5),
        PayDeal: '30',
        CurncyCode: 'EUR',
        OKFlag: '1',
      },
      [{ ArtCode: item.code, Quant: String(r.int(5, 50)), Price: item.inPrice, VATCode: '1' }],
    );
  }
  // purchase invoices: rows exclude VAT, VATVal and PayVal follow (rule 5)
  const purchases: { serNr: string; ve: string; pay: string }[] = [];
  for (let i = 0; i < count.VIVc!; i++) {
    const ve = r.pick(m.suppliers);
    const date = seedDate(i * 2);
    const rec = w.add(
      'VIVc',
      {
        SerNr: serNr(i),
        InvDate: date,
        TransDate: date,
        VECode: ve,
        InvoiceNr: `P-${1000 + i}`,
        OKFlag: '1',
        PayDeal: '30',
        DueDate: seedDate(i * 2 + 30),
        APAcc: '2440',
        CurncyCode: 'EUR',
        RefStr: `RF${1000 + i}`,
      },
      [
        {
          stp: '1',
          AccNumber: r.pick(['4000', '6000', '6100']),
          Sum: r.amount(50, 2000),
          VATCode: '1',
          Comment: 'Purchase',
        },
      ],
    );
    purchases.push({ serNr: serNr(i), ve, pay: rec.fields.PayVal ?? '' });
  }
  // receipts: invoice payments; every 5th also a prepayment (CUPNr) that ARPayVc shows
  const paid = invoices.filter((v) => v.ok);
  for (let i = 0; i < count.IPVc!; i++) {
    const date = seedDate(i * 4 + 10);
    const rows: Record<string, string>[] = [];
    const inv = paid[i % Math.max(1, paid.length)];
    if (inv)
      rows.push({
        InvoiceNr: inv.serNr,
        PayDate: date,
        CustCode: inv.cust,
        InvVal: inv.sum4,
        BankVal: inv.sum4,
        RecVal: inv.sum4,
      });
    if (i % 5 === 0) {
      const cust = r.pick(m.customers).code;
      const val = r.amount(100, 1000);
      rows.push({
        CUPNr: `P${String(i + 1).padStart(5, '0')}`,
        PayDate: date,
        CustCode: cust,
        BankVal: val,
        RecVal: val,
        VATCode: '1',
      });
    }
    w.add('IPVc', { SerNr: serNr(i), PayMode: 'BANK', OKFlag: '1', TransDate: date, PayCurCode: 'EUR' }, rows);
  }
  for (let i = 0; i < count.OPVc!; i++) {
    const p = purchases[i % Math.max(1, purchases.length)];
    if (!p) break;
    w.add(
      'OPVc',
      {
        SerNr: serNr(i),
        BankAcc: '1200',
        PayDate: seedDate(i * 6 + 20),
        PayMode: 'BANK',
        PayCurCode: 'EUR',
        TransDate: seedDate(i * 6 + 20),
      },
      [{ VISerNr: p.serNr, VECode: p.ve, PInvVal: p.pay, BankVal: p.pay, RecVal: p.pay }],
    );
  }
  seedOtherTransactions(w, m, count, n);
}
