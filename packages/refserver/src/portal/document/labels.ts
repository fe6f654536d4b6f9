/** Languages of `document` (portal-action-api.md §4 "Generate document": language `est`, `lat` or `eng`). */
export const DOCUMENT_LANGUAGES = ['eng', 'est', 'lat'] as const;
export type DocumentLanguage = (typeof DOCUMENT_LANGUAGES)[number];

/** Document headings by template kind. */
export type DocumentKind = 'invoice' | 'proforma' | 'order' | 'orderconf' | 'quote' | 'purchase' | 'orderdoc';

/** Every label a document prints. */
export interface Labels {
  readonly heading: Readonly<Record<DocumentKind, string>>;
  readonly number: string;
  readonly date: string;
  readonly due: string;
  readonly delivery: string;
  readonly validUntil: string;
  readonly customer: string;
  readonly supplier: string;
  readonly vatNr: string;
  readonly item: string;
  readonly description: string;
  readonly qty: string;
  readonly price: string;
  readonly discount: string;
  readonly sum: string;
  readonly net: string;
  readonly vat: string;
  readonly total: string;
  readonly account: string;
  readonly employee: string;
  readonly type: string;
  readonly page: string;
}

/** The labels of each language. */
export const LABELS: Readonly<Record<DocumentLanguage, Labels>> = {
  eng: {
    heading: {
      invoice: 'Invoice',
      proforma: 'Pro forma invoice',
      order: 'Sales order',
      orderconf: 'Order confirmation',
      quote: 'Quotation',
      purchase: 'Purchase invoice',
      orderdoc: 'Order document',
    },
    number: 'No.',
    date: 'Date',
    due: 'Due date',
    delivery: 'Delivery',
    validUntil: 'Valid until',
    customer: 'Customer',
    supplier: 'Supplier',
    vatNr: 'VAT no.',
    item: 'Item',
    description: 'Description',
    qty: 'Qty',
    price: 'Price',
    discount: 'Disc. %',
    sum: 'Sum',
    net: 'Total excl. VAT',
    vat: 'VAT',
    total: 'Total',
    account: 'Account',
    employee: 'Employee',
    type: 'Type',
    page: 'Page',
  },
  est: {
    heading: {
      invoice: 'Arve',
      proforma: 'Ettemaksuarve',
      order: 'Müügitellimus',
      orderconf: 'Tellimuse kinnitus',
      quote: 'Pakkumine',
      purchase: 'Ostuarve',
      orderdoc: 'Käskkiri',
    },
    number: 'Nr',
    date: 'Kuupäev',
    due: 'Maksetähtaeg',
    delivery: 'Tarne',
    validUntil: 'Kehtib kuni',
    customer: 'Klient',
    supplier: 'Tarnija',
    vatNr: 'KMKR nr',
    item: 'Artikkel',
    description: 'Kirjeldus',
    qty: 'Kogus',
    price: 'Hind',
    discount: 'Allah. %',
    sum: 'Summa',
    net: 'Summa km-ta',
    vat: 'Käibemaks',
    total: 'Kokku',
    account: 'Konto',
    employee: 'Töötaja',
    type: 'Liik',
    page: 'Lehekülg',
  },
  lat: {
    heading: {
      invoice: 'Rēķins',
      proforma: 'Avansa rēķins',
      order: 'Pārdošanas pasūtījums',
      orderconf: 'Pasūtījuma apstiprinājums',
      quote: 'Piedāvājums',
      purchase: 'Iepirkuma rēķins',
      orderdoc: 'Rīkojums',
    },
    number: 'Nr.',
    date: 'Datums',
    due: 'Apmaksas termiņš',
    delivery: 'Piegāde',
    validUntil: 'Derīgs līdz',
    customer: 'Klients',
    supplier: 'Piegādātājs',
    vatNr: 'PVN reģ. nr.',
    item: 'Artikuls',
    description: 'Apraksts',
    qty: 'Daudzums',
    price: 'Cena',
    discount: 'Atl. %',
    sum: 'Summa',
    net: 'Summa bez PVN',
    vat: 'PVN',
    total: 'Kopā',
    account: 'Konts',
    employee: 'Darbinieks',
    type: 'Veids',
    page: 'Lapa',
  },
};
