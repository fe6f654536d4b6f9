import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './paths.js';
import { closeXmlValidator, validateXml } from './xsd.js';
import { type XmlBodyKind, xmlBodyKinds } from './xsd-kinds.js';

const fixtures = join(repoRoot, 'packages', 'contract', 'test', 'fixtures', 'xml');
const fixture = (name: string) => readFileSync(join(fixtures, name), 'utf8');

afterAll(closeXmlValidator);

interface Case {
  readonly fixture: string;
  readonly kind: XmlBodyKind;
  readonly valid: boolean;
  /** Fragments every one of which must appear in the joined messages. */
  readonly messageIncludes?: readonly string[];
  readonly failure?: boolean;
  readonly checkedAs?: XmlBodyKind;
}

// One valid fixture per shape of portal-action-api.md §2 "Result element shapes" and record-rest-api.md §2.
const validCases: [string, Case][] = [
  ['REST envelope with rows', { fixture: 'rest-envelope.xml', kind: 'rest-envelope', valid: true }],
  [
    'REST envelope, composite key and unknown register',
    { fixture: 'rest-envelope-composite-key.xml', kind: 'rest-envelope', valid: true },
  ],
  ['REST envelope without records', { fixture: 'rest-envelope-empty.xml', kind: 'rest-envelope', valid: true }],
  ['REST settings block (VATCodeBlock)', { fixture: 'rest-block.xml', kind: 'rest-block', valid: true }],
  ['REST settings block without lines', { fixture: 'rest-block-empty.xml', kind: 'rest-block', valid: true }],
  ['operation result', { fixture: 'portal-result.xml', kind: 'portal-result', valid: true, failure: false }],
  [
    'operation result with errstr',
    { fixture: 'portal-failure-result.xml', kind: 'portal-result', valid: true, failure: true },
  ],
  ['upload result', { fixture: 'portal-upload-result.xml', kind: 'portal-upload-result', valid: true }],
  ['conversion result', { fixture: 'portal-conversion-result.xml', kind: 'portal-conversion-result', valid: true }],
  ['hasusernewapi', { fixture: 'portal-hasusernewapi.xml', kind: 'portal-hasusernewapi', valid: true }],
  ['login result', { fixture: 'portal-login.xml', kind: 'portal-login', valid: true }],
  ['approval status', { fixture: 'portal-approval.xml', kind: 'portal-approval', valid: true }],
  ['document', { fixture: 'portal-document.xml', kind: 'portal-document', valid: true }],
  ['attachment list', { fixture: 'portal-attachments.xml', kind: 'portal-attachments', valid: true }],
  ['lookup INVc, fields in any order', { fixture: 'portal-lookup.xml', kind: 'portal-lookup', valid: true }],
  ['lookup CUVc (fields not shown)', { fixture: 'portal-lookup-cuvc.xml', kind: 'portal-lookup', valid: true }],
  ['paged list IVVc', { fixture: 'portal-list.xml', kind: 'portal-list', valid: true }],
  [
    'paged list of a register whose fields are not shown',
    { fixture: 'portal-list-other-register.xml', kind: 'portal-list', valid: true },
  ],
  ['ARVc list', { fixture: 'portal-arap-list.xml', kind: 'portal-arap-list', valid: true }],
  ['APVc list', { fixture: 'portal-arap-list-apvc.xml', kind: 'portal-arap-list', valid: true }],
  ['upload request body', { fixture: 'portal-upload-request.xml', kind: 'portal-upload-request', valid: true }],
  ['not-shown body under data', { fixture: 'open.xml', kind: 'open', valid: true }],
  ['error element alone', { fixture: 'error-only.xml', kind: 'error-only', valid: true, failure: true }],
];

// Bodies with more than one top-level element (specs/xsd/README.md "Bodies without a single root").
const multiRootCases: [string, Case][] = [
  [
    'error and message before a valid envelope',
    { fixture: 'error-before-data.xml', kind: 'rest-envelope', valid: true, failure: true },
  ],
  [
    'message before a valid approval status',
    { fixture: 'message-before-approval.xml', kind: 'portal-approval', valid: true, failure: false },
  ],
  [
    'error before an invalid approval status',
    {
      fixture: 'invalid/error-before-invalid-data.xml',
      kind: 'portal-approval',
      valid: false,
      messageIncludes: ['line 2:', 'approvalstatus', "'9'"],
    },
  ],
  [
    'unknown element before data',
    {
      fixture: 'invalid/unknown-element-before-data.xml',
      kind: 'portal-result',
      valid: false,
      messageIncludes: ['line 1:', "'warning'", 'not expected'],
    },
  ],
  [
    'two data elements',
    {
      fixture: 'invalid/two-data.xml',
      kind: 'portal-result',
      valid: false,
      messageIncludes: ['line 2:', "'data'", 'not expected'],
    },
  ],
  [
    'error alone, where a list is expected',
    { fixture: 'error-only.xml', kind: 'portal-list', valid: true, failure: true, checkedAs: 'portal-list' },
  ],
  [
    'error alone, where a REST envelope is expected',
    { fixture: 'error-only.xml', kind: 'rest-envelope', valid: true, failure: true },
  ],
];

// A portal failure answer stands in for any portal success shape (portal-action-api.md §1, §7).
const failureCases: [string, Case][] = [
  [
    'failure result where a list is expected',
    {
      fixture: 'portal-failure-result.xml',
      kind: 'portal-list',
      valid: true,
      failure: true,
      checkedAs: 'portal-result',
    },
  ],
  [
    'failure result where a document is expected',
    {
      fixture: 'portal-failure-result.xml',
      kind: 'portal-document',
      valid: true,
      failure: true,
      checkedAs: 'portal-result',
    },
  ],
  [
    'failure result is not a REST envelope',
    {
      fixture: 'portal-failure-result.xml',
      kind: 'rest-envelope',
      valid: false,
      failure: true,
      messageIncludes: ["'data'", "'register' is required"],
    },
  ],
  [
    'success result is no approval status',
    {
      fixture: 'invalid/approval-missing-dummyvc.xml',
      kind: 'portal-approval',
      valid: false,
      failure: false,
      messageIncludes: ['DummyVc'],
    },
  ],
];

const invalidCases: [string, Case][] = [
  [
    'approvalstatus 6',
    {
      fixture: 'invalid/approval-status-6.xml',
      kind: 'portal-approval',
      valid: false,
      messageIncludes: ['approvalstatus', "'6'"],
    },
  ],
  [
    'cancancel yes',
    {
      fixture: 'invalid/approval-cancancel-yes.xml',
      kind: 'portal-approval',
      valid: false,
      messageIncludes: ['cancancel', "'yes'"],
    },
  ],
  [
    'attachment size 12kB',
    {
      fixture: 'invalid/attachment-size-12kB.xml',
      kind: 'portal-attachments',
      valid: false,
      messageIncludes: ["'size'", "'12kB'"],
    },
  ],
  [
    'attachment date 31.01.2026',
    {
      fixture: 'invalid/attachment-date-dotted.xml',
      kind: 'portal-attachments',
      valid: false,
      messageIncludes: ["'date'", "'31.01.2026'"],
    },
  ],
  [
    'attachment without filename',
    {
      fixture: 'invalid/attachment-missing-filename.xml',
      kind: 'portal-attachments',
      valid: false,
      messageIncludes: ["'filename' is required"],
    },
  ],
  [
    'upload uuid not a UUID',
    {
      fixture: 'invalid/upload-result-uuid-not-uuid.xml',
      kind: 'portal-upload-result',
      valid: false,
      messageIncludes: ["'uuid'", "'file-0001'"],
    },
  ],
  [
    'conversion without new SerNr',
    {
      fixture: 'invalid/conversion-result-empty-newdata.xml',
      kind: 'portal-conversion-result',
      valid: false,
      messageIncludes: ["'newdata'"],
    },
  ],
  [
    'hasapi 2',
    {
      fixture: 'invalid/hasusernewapi-2.xml',
      kind: 'portal-hasusernewapi',
      valid: false,
      messageIncludes: ["'hasapi'", "'2'"],
    },
  ],
  [
    'res without errstr',
    {
      fixture: 'invalid/result-missing-errstr.xml',
      kind: 'portal-result',
      valid: false,
      messageIncludes: ["'errstr' is required"],
    },
  ],
  [
    'login hassigning 2',
    {
      fixture: 'invalid/login-hassigning-2.xml',
      kind: 'portal-login',
      valid: false,
      messageIncludes: ['hassigning', "'2'"],
    },
  ],
  [
    'login supported without invoices',
    {
      fixture: 'invalid/login-missing-invoices.xml',
      kind: 'portal-login',
      valid: false,
      messageIncludes: ['supported', 'invoices'],
    },
  ],
  [
    'login without apiversion',
    {
      fixture: 'invalid/login-missing-apiversion.xml',
      kind: 'portal-login',
      valid: false,
      messageIncludes: ["'apiversion' is required"],
    },
  ],
  [
    'document base64 not base64',
    {
      fixture: 'invalid/document-base64-invalid.xml',
      kind: 'portal-document',
      valid: false,
      messageIncludes: ['base64', '%PDF-1.4'],
    },
  ],
  [
    'document without name',
    { fixture: 'invalid/document-missing-name.xml', kind: 'portal-document', valid: false, messageIncludes: ['name'] },
  ],
  [
    'perpage 101',
    {
      fixture: 'invalid/list-perpage-101.xml',
      kind: 'portal-list',
      valid: false,
      messageIncludes: ["'perpage'", "'101'"],
    },
  ],
  [
    'page 0',
    { fixture: 'invalid/list-page-0.xml', kind: 'portal-list', valid: false, messageIncludes: ["'page'", "'0'"] },
  ],
  [
    'list without totalpages',
    {
      fixture: 'invalid/list-missing-totalpages.xml',
      kind: 'portal-list',
      valid: false,
      messageIncludes: ["'totalpages' is required"],
    },
  ],
  [
    'IVVc list record without Sum4',
    {
      fixture: 'invalid/list-ivvc-missing-sum4.xml',
      kind: 'portal-list',
      valid: false,
      messageIncludes: ['line 2:', 'IVVc-list.has-SerNr-InvDate-CustCode-Sum4'],
    },
  ],
  [
    'IVVc list field with an element child',
    {
      fixture: 'invalid/list-ivvc-field-element-child.xml',
      kind: 'portal-list',
      valid: false,
      messageIncludes: ['IVVc-list.fields-are-text'],
    },
  ],
  [
    'APVc DueDate 28.02.2026',
    {
      fixture: 'invalid/arap-duedate-dotted.xml',
      kind: 'portal-arap-list',
      valid: false,
      messageIncludes: ['DueDate', "'28.02.2026'"],
    },
  ],
  [
    'ARVc/APVc list without total',
    {
      fixture: 'invalid/arap-missing-total.xml',
      kind: 'portal-arap-list',
      valid: false,
      messageIncludes: ["'total' is required"],
    },
  ],
  [
    '51 lookup records',
    {
      fixture: 'invalid/lookup-51-records.xml',
      kind: 'portal-lookup',
      valid: false,
      messageIncludes: ['line 52:', "'INVc'", 'not expected'],
    },
  ],
  [
    'INVc lookup record without UPrice1',
    {
      fixture: 'invalid/lookup-invc-missing-uprice1.xml',
      kind: 'portal-lookup',
      valid: false,
      messageIncludes: ['INVc-lookup.has-Code-Name-UPrice1'],
    },
  ],
  [
    'REST record without url',
    {
      fixture: 'invalid/rest-record-missing-url.xml',
      kind: 'rest-envelope',
      valid: false,
      messageIncludes: ["'url' is required"],
    },
  ],
  [
    'REST record of an unknown register without sequence',
    {
      fixture: 'invalid/rest-unknown-register-missing-sequence.xml',
      kind: 'rest-envelope',
      valid: false,
      messageIncludes: ["'CustomRegVc'", 'record-carries-register-sequence-url'],
    },
  ],
  [
    'REST field with an element child',
    {
      fixture: 'invalid/rest-field-element-child.xml',
      kind: 'rest-envelope',
      valid: false,
      messageIncludes: ['line 4:', 'IVVc.field-values-are-text'],
    },
  ],
  [
    'REST row field with an element child',
    {
      fixture: 'invalid/rest-row-field-element-child.xml',
      kind: 'rest-envelope',
      valid: false,
      messageIncludes: ['row.field-values-are-text'],
    },
  ],
  [
    'REST OKFlag 2',
    {
      fixture: 'invalid/rest-okflag-2.xml',
      kind: 'rest-envelope',
      valid: false,
      messageIncludes: ["'OKFlag'", "'2'"],
    },
  ],
  [
    'REST rows with the same rownumber',
    {
      fixture: 'invalid/rest-duplicate-rownumber.xml',
      kind: 'rest-envelope',
      valid: false,
      messageIncludes: ['Duplicate', 'rownumbers-unique'],
    },
  ],
  [
    'REST rownumber not an integer',
    {
      fixture: 'invalid/rest-rownumber-not-integer.xml',
      kind: 'rest-envelope',
      valid: false,
      messageIncludes: ["'rownumber'", "'first'"],
    },
  ],
  [
    'REST url of another register',
    {
      fixture: 'invalid/rest-url-other-register.xml',
      kind: 'rest-envelope',
      valid: false,
      messageIncludes: ["'url'", '/api/1/ORVc/100001'],
    },
  ],
  [
    'REST url with one part of a two-part key',
    {
      fixture: 'invalid/rest-url-missing-key-part.xml',
      kind: 'rest-envelope',
      valid: false,
      messageIncludes: ["'url'", '/api/1/ItemStatusVc/A1'],
    },
  ],
  [
    'REST @register not the element name',
    {
      fixture: 'invalid/rest-register-attribute-mismatch.xml',
      kind: 'rest-envelope',
      valid: false,
      messageIncludes: ["'register'", "'ORVc'", "'IVVc'"],
    },
  ],
  [
    'REST envelope sequence not an integer',
    {
      fixture: 'invalid/rest-envelope-sequence-not-integer.xml',
      kind: 'rest-envelope',
      valid: false,
      messageIncludes: ["'sequence'", "'latest'"],
    },
  ],
  [
    'REST envelope without systemversion',
    {
      fixture: 'invalid/rest-envelope-missing-systemversion.xml',
      kind: 'rest-envelope',
      valid: false,
      messageIncludes: ["'systemversion' is required"],
    },
  ],
  [
    'upload request without filename',
    {
      fixture: 'invalid/upload-request-missing-filename.xml',
      kind: 'portal-upload-request',
      valid: false,
      messageIncludes: ['filename'],
    },
  ],
  [
    'upload request with two files',
    {
      fixture: 'invalid/upload-request-two-files.xml',
      kind: 'portal-upload-request',
      valid: false,
      messageIncludes: ["'file'", 'not expected'],
    },
  ],
  [
    'a settings block is no REST envelope: its one element is no record (no sequence, no url)',
    {
      fixture: 'rest-block.xml',
      kind: 'rest-envelope',
      valid: false,
      messageIncludes: ["'VATCodeBlock'", 'record-carries-register-sequence-url'],
    },
  ],
  [
    'a REST envelope of records is no settings block',
    {
      fixture: 'rest-envelope.xml',
      kind: 'rest-block',
      valid: false,
      messageIncludes: ["'IVVc'", 'not expected'],
    },
  ],
  [
    'REST settings block without rows',
    {
      fixture: 'invalid/rest-block-without-rows.xml',
      kind: 'rest-block',
      valid: false,
      messageIncludes: ["'VATCodeBlock'", 'Expected is ( rows )'],
    },
  ],
  [
    'REST settings block twice',
    {
      fixture: 'invalid/rest-block-two-blocks.xml',
      kind: 'rest-block',
      valid: false,
      messageIncludes: ['line 4:', "'VATCodeBlock'", 'not expected'],
    },
  ],
  [
    'REST settings block lines with the same rownumber',
    {
      fixture: 'invalid/rest-block-duplicate-rownumber.xml',
      kind: 'rest-block',
      valid: false,
      messageIncludes: ['Duplicate', 'VATCodeBlock.rownumbers-unique'],
    },
  ],
  [
    'REST settings block row field with an element child',
    {
      fixture: 'invalid/rest-block-row-field-element-child.xml',
      kind: 'rest-block',
      valid: false,
      messageIncludes: ['row.field-values-are-text'],
    },
  ],
  [
    'REST settings block @register of another register',
    {
      fixture: 'invalid/rest-block-register-attribute-mismatch.xml',
      kind: 'rest-block',
      valid: false,
      messageIncludes: ["'register'", "'IVVc'", "'VATCodeBlock'"],
    },
  ],
  [
    'not well-formed',
    {
      fixture: 'invalid/not-well-formed.xml',
      kind: 'portal-result',
      valid: false,
      messageIncludes: ['line 3:', 'parser error', 'mismatch'],
    },
  ],
  [
    'plain text instead of XML',
    {
      fixture: 'invalid/plain-text.xml',
      kind: 'portal-result',
      valid: false,
      messageIncludes: ['Top level of the body', 'Character content'],
    },
  ],
];

const allCases = [...validCases, ...multiRootCases, ...failureCases, ...invalidCases];

describe('validateXml', () => {
  it.each(allCases)('%s', async (_name, c) => {
    const result = await validateXml(fixture(c.fixture), c.kind);
    expect({ valid: result.valid, errors: result.errors }).toMatchObject({ valid: c.valid });
    if (c.valid) expect(result.errors).toEqual([]);
    else expect(result.errors.length).toBeGreaterThan(0);
    for (const e of result.errors) expect(e).toMatch(/^line \d+: /);
    const joined = result.errors.join('\n');
    for (const part of c.messageIncludes ?? []) expect(joined).toContain(part);
    if (c.failure !== undefined) expect(result.failure).toBe(c.failure);
    expect(result.checkedAs).toBe(c.checkedAs ?? c.kind);
  });

  it('has a valid fixture for every kind', () => {
    const covered = new Set(validCases.map(([, c]) => c.kind));
    expect(xmlBodyKinds.filter((k) => !covered.has(k))).toEqual([]);
  });

  it('reports the top-level elements in order', async () => {
    const result = await validateXml(fixture('error-before-data.xml'), 'rest-envelope');
    expect(result.roots).toEqual(['error', 'message', 'data']);
  });

  it('keeps the line numbers of a body that starts with an XML declaration', async () => {
    const body = '<?xml version="1.0" encoding="ISO-8859-1"?>\n<data>\n<res errstr="" hasapi="yes"/>\n</data>';
    const result = await validateXml(body, 'portal-hasusernewapi');
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/^line 3: .*'hasapi'.*'yes'/);
  });

  it('validates a body that starts with a byte order mark and a DOCTYPE', async () => {
    const body = '\uFEFF<?xml version="1.0"?>\n<!DOCTYPE data>\n<data><res errstr=""/></data>';
    expect(await validateXml(body, 'portal-result')).toMatchObject({ valid: true, roots: ['data'] });
  });

  it.each([
    ['empty', ''],
    ['blank', ' \n '],
  ])('rejects an %s body with a clear message', async (_name, body) => {
    const result = await validateXml(body, 'rest-envelope');
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual(['line 1: the body is empty; expected an XML document']);
  });

  it('rejects a kind it does not know', async () => {
    await expect(validateXml('<data/>', 'portal-unknown' as XmlBodyKind)).rejects.toThrow(/unknown XML body kind/);
  });

  it('gives the same answers to concurrent calls as to sequential ones', async () => {
    const cases = [...validCases, ...invalidCases].slice(0, 12);
    const concurrent = await Promise.all(cases.map(([, c]) => validateXml(fixture(c.fixture), c.kind)));
    expect(concurrent.map((r) => r.valid)).toEqual(cases.map(([, c]) => c.valid));
  });

  it('works again after the validator was closed', async () => {
    await closeXmlValidator();
    expect((await validateXml(fixture('portal-result.xml'), 'portal-result')).valid).toBe(true);
  });
});
