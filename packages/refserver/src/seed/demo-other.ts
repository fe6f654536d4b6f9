import type { MasterData } from './demo-master.js';
import { type SeedWriter, seedDate } from './seed-writer.js';

/** Expenses, stock movements and write-offs, contracts, gift cards and payroll registers of one company. */
export function seedOtherTransactions(w: SeedWriter, m: MasterData, count: Record<string, number>, n: number): void {
  const r = w.rng;
  const serNr = (i: number) => String(10000001 + i);
  for (let i = 0; i < count.ExpVc!; i++) {
    const person = r.pick(m.employees);
    w.add(
      'ExpVc',
      {
        SerNr: serNr(i),
        OKFlag: '1',
        Person: person,
        Name: `Expenses ${person}`,
        TransDate: seedDate(i * 9),
        CurncyCode: 'EUR',
      },
      [{ AccNumber: '6200', Sum: r.amount(10, 300), Item: 'Taxi', qty: '1', VATCode: '2' }],
    );
  }
  for (let i = 0; i < count.StockMovVc!; i++) {
    const item = r.pick(m.items.filter((it) => !it.serial));
    w.add(
      'StockMovVc',
      { SerNr: serNr(i), RegDate: seedDate(i * 11), FrLocation: 'MAIN', ToLocation: 'SHOP', OKFlag: '1' },
      [{ ArtCode: item.code, Quant: String(r.int(1, 5)), NewPrice: '' }],
    );
  }
  for (let i = 0; i < count.SDVc!; i++) {
    const item = r.pick(m.items.filter((it) => !it.serial));
    w.add('SDVc', { SerNr: serNr(i), TransDate: seedDate(i * 13), CostAcc: '4010', OKFlag: '1', Location: 'MAIN' }, [
      { ArtCode: item.code, Qty: '1' },
    ]);
  }
  for (let i = 0; i < count.COVc!; i++) {
    w.add('COVc', {
      CustCode: r.pick(m.customers).code,
      SerNr: serNr(i),
      CODate: seedDate(i),
      startDate: seedDate(i),
      endDate: seedDate(i + 365),
      OKFlag: '1',
      perType: '1',
      perLength: '12',
    });
  }
  for (let i = 0; i < count.GCVc!; i++) {
    w.add('GCVc', {
      SerNr: serNr(i),
      TransDate: seedDate(i),
      Amount: r.pick(['25.00', '50.00', '100.00']),
      ExpiryDate: seedDate(i + 365),
      OKFlag: '1',
      Closed: '0',
    });
  }
  m.employees.forEach((e, i) => {
    if (n === 0) return;
    w.add(
      'ContractVc',
      { SerNr: serNr(i), EmplCode: e, StartDate: '2024-01-01', EndDate: '', VacDaysNorm: '28', Status: '1' },
      [
        {
          PosCode: 'DEV',
          SDate: '2024-01-01',
          EDate: '',
          WorkLoad: '1',
          PaymTypeCode: 'SAL',
          Sum: r.amount(1500, 4000),
        },
      ],
    );
  });
  for (let i = 0; i < count.WorkedHoursVc!; i++) {
    const days = Object.fromEntries(Array.from({ length: 31 }, (_, d) => [`d${d + 1}`, d % 7 < 5 ? '8' : '']));
    w.add('WorkedHoursVc', { SerNr: serNr(i), Year: '2024', Month: String((i % 12) + 1), OKFlag: '1' }, [
      { ContrSerNr: serNr(i % m.employees.length), PosCode: 'DEV', WorkHourTypeCode: 'NORMAL', ...days },
    ]);
  }
  for (let i = 0; i < count.AbsenceVc!; i++) {
    w.add(
      'AbsenceVc',
      {
        SerNr: serNr(i),
        ContrSerNr: serNr(i % m.employees.length),
        EmplCode: m.employees[i % m.employees.length]!,
        StartDate: seedDate(i * 30 + 150),
        EndDate: seedDate(i * 30 + 154),
        AbsTypeCode: 'VAC',
        WorkDays: '5',
        CalendarDays: '5',
        OKFlag: '1',
      },
      [{ Year: '2024', SDate: seedDate(i * 30 + 150), EDate: seedDate(i * 30 + 154), Days: '5' }],
    );
  }
  for (let i = 0; i < count.OpenTransVc!; i++) {
    w.add('OpenTransVc', { SerNr: serNr(i), TransDate: seedDate(i * 30), PaymTypeCode: 'BONUS', OKFlag: '0' }, [
      { ContrSerNr: serNr(i % m.employees.length), PosCode: 'DEV', Tariff: '10.00', Amount: String(r.int(1, 20)) },
    ]);
  }
}
