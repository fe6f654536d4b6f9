import type { RecordStore } from '../store/record-store.js';

/**
 * A small hand-written data set for route tests, so that expected values come from here and not
 * from the code under test. VAT codes: 1 is 22 %, 2 is 9 % (business/vat.ts).
 */
export function loadFixture(store: RecordStore, company = 1): void {
  const add = (register: string, fields: Record<string, string>, rows: Record<string, string>[] = []) =>
    store.insert(register, company, { fields, rows });
  store.write(() => {
    add('PDVc', { Code: '30', pdays: '30', pdComment: '30 days' });
    add('PDVc', { Code: '14', pdays: '14', pdComment: '14 days' });
    add('PDVc', { Code: 'K', pdays: '0', pdComment: 'credit' });
    add('CCatVc', { Code: 'DOM', PLCode: 'PL1', ARAcc: '1500' });
    add('ITVc', { Code: 'GOODS', SalesAcc: '3000' });
    add('AccVc', { AccNumber: '4000', Comment: 'Purchases', VATCode: '1' });
    add('AccVc', { AccNumber: '1000', Comment: 'Cash' }, [{ LangCode: 'ENG', Text: 'Cash' }]);
    add('CUVc', {
      Code: 'C1',
      Name: 'Alpha Ltd',
      InvAddr0: 'Main St 1',
      InvAddr1: 'Tallinn',
      InvAddr2: '10111',
      PayDeal: '30',
      CurncyCode: 'EUR',
      Classification: 'DOM',
      CountryCode: 'EE',
      SalesMan: 'JD',
      CUType: '1',
    });
    add('CUVc', { Code: 'C2', Name: 'Beta Supplies', PayDeal: '14', CurncyCode: 'USD', VEType: '1' });
    add('CUVc', { Code: 'C3', Name: 'Gamma & Sons <Oy>', PayDeal: '14', CurncyCode: 'EUR', CUType: '1' });
    add('INVc', {
      Code: 'I1',
      Name: 'Widget',
      UPrice1: '10.00',
      InPrice: '6.00',
      VATCode: '1',
      Group: 'GOODS',
      Unittext: 'pcs',
    });
    add('INVc', {
      Code: 'I2',
      Name: 'Gadget',
      UPrice1: '20.00',
      InPrice: '12.00',
      VATCode: '2',
      Group: 'GOODS',
      Unittext: 'kg',
    });
    add('INVc', { Code: 'ITEM/1', Name: 'Slash item', UPrice1: '1.00', VATCode: '1' });
    add('PLVc', { PLCode: 'PL1', ArtCode: 'I1', ExVatPrice: '9.00' });
    add('PLVc', { PLCode: 'PL1', ArtCode: 'ITEM/1', ExVatPrice: '0.90' });
  });
}
