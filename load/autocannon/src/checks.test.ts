import { describe, expect, it } from 'vitest';
import {
  checkCreated,
  checkDocument,
  checkListPage,
  checkLookup,
  checkReadPage,
  checkSync,
  countElements,
  erpErrorOf,
  LOOK_CHARS,
  portalErrorOf,
  quickCheck,
  recordSequences,
  sampleEvery,
} from './checks.js';

const envelope = (records: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<data register="IVVc" sequence="9" systemversion="1.0">\n${records}</data>\n`;
const invoice = (okflag: string, spec: string) =>
  `<IVVc register="IVVc" sequence="9" url="/api/1/IVVc/10000001"><SerNr>10000001</SerNr><OKFlag>${okflag}</OKFlag><rows><row rownumber="0"><Spec>${spec}</Spec></row></rows></IVVc>\n`;

describe('checkCreated', () => {
  const cases: [string, { status: number; body: string; confirmed: boolean }, string | undefined][] = [
    [
      'a confirmed invoice with the tag',
      { status: 200, body: envelope(invoice('1', 'tag-1')), confirmed: true },
      undefined,
    ],
    ['not confirmed', { status: 200, body: envelope(invoice('0', 'tag-1')), confirmed: true }, 'OKFlag'],
    [
      'unconfirmed is fine when not asked',
      { status: 200, body: envelope(invoice('0', 'tag-1')), confirmed: false },
      undefined,
    ],
    ['without the tag', { status: 200, body: envelope(invoice('1', 'other')), confirmed: true }, 'run tag'],
    [
      'an error element with status 200 (real servers, DESIGN.md)',
      {
        status: 200,
        body: '<error code="1058" description="Customer unknown" row="-1" field="CustCode"/><data register="IVVc"/>',
        confirmed: true,
      },
      'error element',
    ],
    ['HTTP 500', { status: 500, body: 'boom', confirmed: true }, 'HTTP 500'],
    ['no record in the answer', { status: 200, body: envelope(''), confirmed: true }, 'expected 1 IVVc record'],
  ];
  it.each(cases)('%s', (_name, { status, body, confirmed }, want) => {
    const got = checkCreated(status, body, 'IVVc', 'tag-1', confirmed);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toContain(want);
  });
});

describe('read pages and sync answers', () => {
  const trvc = (seq: number, comment = '') =>
    `<TRVc register="TRVc" sequence="${seq}" url="/api/1/TRVc/2025/${seq}"><Number>${seq}</Number><rows><row rownumber="0"><Comment>${comment}</Comment></row></rows></TRVc>`;

  it('counts record elements, not the envelope or row elements', () => {
    const body = `<data register="TRVc">${trvc(1)}${trvc(2)}<TRVcX/></data>`;
    expect(countElements(body, 'TRVc')).toBe(2);
    expect(recordSequences(body, 'TRVc')).toEqual([1, 2]);
  });

  it('a page must hold exactly the records asked for', () => {
    expect(checkReadPage(200, `<data>${trvc(1)}${trvc(2)}</data>`, 'TRVc', 2)).toBeUndefined();
    expect(checkReadPage(200, `<data>${trvc(1)}</data>`, 'TRVc', 2)).toContain('got 1');
  });

  const syncCases: [string, number, string, string | undefined][] = [
    ['only newer records, ours among them', 200, `<data>${trvc(11)}${trvc(12, 'tag-7')}</data>`, undefined],
    ['an older record', 200, `<data>${trvc(10)}${trvc(12, 'tag-7')}</data>`, 'sequence 10'],
    ['ours missing', 200, `<data>${trvc(11)}</data>`, 'did not return'],
    ['nothing', 200, '<data register="TRVc"/>', 'no TRVc record'],
    ['no sync index: 404 with text (DESIGN.md)', 404, 'no synchronisation index', 'synchronisation index'],
  ];
  it.each(syncCases)('sync: %s', (_name, status, body, want) => {
    const got = checkSync(status, body, 'TRVc', 10, 'tag-7');
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toContain(want);
  });
});

describe('portal answers', () => {
  it('an errstr fails, an empty one passes', () => {
    expect(portalErrorOf(200, '<data><res errstr=""/></data>')).toBeUndefined();
    expect(portalErrorOf(200, '<data><res errstr="Record is locked"/></data>')).toContain('Record is locked');
  });

  it('pastespecial answers at most 50 results', () => {
    const items = (n: number) => `<data>${'<INVc><Code>A</Code></INVc>'.repeat(n)}</data>`;
    expect(checkLookup(200, items(50), 'INVc')).toBeUndefined();
    expect(checkLookup(200, items(51), 'INVc')).toContain('more than the documented 50');
  });

  it('a list page carries page attributes', () => {
    expect(checkListPage(200, '<data count="3" page="1" perpage="20" totalpages="1"><IVVc/></data>')).toBeUndefined();
    expect(checkListPage(200, '<data page="2" total="40"></data>')).toBeUndefined();
    expect(checkListPage(200, '<data></data>')).toContain('paged');
  });

  it('a document holds base64 content', () => {
    const pdf = Buffer.from('%PDF-1.4 a small document').toString('base64');
    expect(checkDocument(200, `<data><file><name>a.pdf</name><base64>${pdf}</base64></file></data>`)).toBeUndefined();
    expect(checkDocument(200, '<data><res errstr="IVVc 1 does not exist"/></data>')).toContain('errstr');
    expect(checkDocument(200, '<data><file><name>a.pdf</name><base64></base64></file></data>')).toContain('no <file>');
  });
});

describe('quickCheck: the cheap check of every response', () => {
  const seq = { Sequence: '123' };
  it.each([
    ['a 200 with a Sequence header and no error', 200, '<data><IVVc/></data>', seq, true, undefined],
    ['a 500', 500, 'boom', seq, true, 'HTTP 500: boom'],
    [
      'a REST answer without Sequence (record-rest-api.md §4 rule 6)',
      200,
      '<data/>',
      {},
      true,
      'no numeric Sequence header',
    ],
    ['a portal answer needs no Sequence', 200, '<data/>', {}, false, undefined],
    [
      'an <error> before <data>, with 200',
      200,
      '<error code="1058" description="x"/><data/>',
      seq,
      true,
      'error element <error code="1058"',
    ],
    ['a non-empty errstr', 200, '<data><res errstr="locked"/></data>', {}, false, 'errstr="locked"'],
    ['an empty errstr passes', 200, '<data><res errstr=""/></data>', {}, false, undefined],
  ] as const)('%s', (_name, status, body, headers, rest, want) => {
    const got = quickCheck(status, body, headers, rest);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toContain(want);
  });

  it('looks no further than LOOK_CHARS into the body (the full check on the sample sees the rest)', () => {
    const late = `<data>${' '.repeat(LOOK_CHARS)}<error code="1"/></data>`;
    expect(quickCheck(200, late, seq, true)).toBeUndefined();
    expect(erpErrorOf(200, late)).toContain('<error code="1"/>');
  });

  it('sampleEvery(n) picks the first call and every n-th after it', () => {
    const full = sampleEvery(4);
    expect(Array.from({ length: 9 }, () => full())).toEqual([
      true,
      false,
      false,
      false,
      true,
      false,
      false,
      false,
      true,
    ]);
    const all = sampleEvery(1);
    expect([all(), all(), all()]).toEqual([true, true, true]);
  });
});
