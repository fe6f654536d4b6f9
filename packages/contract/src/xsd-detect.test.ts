import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './paths.js';
import { detectXmlBodyKind } from './xsd-detect.js';
import type { XmlBodyKind } from './xsd-kinds.js';

const fixtures = join(repoRoot, 'packages', 'contract', 'test', 'fixtures', 'xml');

describe('detectXmlBodyKind', () => {
  it.each<[string, XmlBodyKind]>([
    ['rest-envelope.xml', 'rest-envelope'],
    ['rest-envelope-empty.xml', 'rest-envelope'],
    ['error-before-data.xml', 'rest-envelope'],
    ['rest-block.xml', 'rest-block'],
    ['rest-block-empty.xml', 'rest-block'],
    ['invalid/rest-block-without-rows.xml', 'rest-envelope'],
    ['portal-result.xml', 'portal-result'],
    ['portal-failure-result.xml', 'portal-result'],
    ['portal-upload-result.xml', 'portal-upload-result'],
    ['portal-conversion-result.xml', 'portal-conversion-result'],
    ['portal-hasusernewapi.xml', 'portal-hasusernewapi'],
    ['portal-login.xml', 'portal-login'],
    ['portal-approval.xml', 'portal-approval'],
    ['message-before-approval.xml', 'portal-approval'],
    ['portal-document.xml', 'portal-document'],
    ['portal-attachments.xml', 'portal-attachments'],
    ['portal-lookup.xml', 'portal-lookup'],
    ['portal-lookup-cuvc.xml', 'portal-lookup'],
    ['portal-list.xml', 'portal-list'],
    ['portal-list-other-register.xml', 'portal-list'],
    ['portal-arap-list.xml', 'portal-arap-list'],
    ['portal-arap-list-apvc.xml', 'portal-arap-list'],
    ['portal-upload-request.xml', 'portal-upload-request'],
    ['open.xml', 'open'],
    ['error-only.xml', 'error-only'],
  ])('%s is %s', (file, kind) => {
    expect(detectXmlBodyKind(readFileSync(join(fixtures, file), 'utf8'))).toBe(kind);
  });

  it.each([
    ['an empty data element', '<data/>', 'open'],
    ['records of a register that pastespecial does not serve', '<data><ORVc/><ORVc/></data>', 'open'],
    ['not XML', 'Access denied', undefined],
    ['a body that does not close', '<data><res errstr="">', undefined],
    ['two data elements', '<data/><data/>', undefined],
    ['another root', '<html><body/></html>', undefined],
    [
      'a record named like the register, with a url',
      '<data register="X" systemversion="1"><X register="X" sequence="1" url="/api/1/X/1"><rows/></X></data>',
      'rest-envelope',
    ],
  ])('%s', (_name, body, kind) => {
    expect(detectXmlBodyKind(body)).toBe(kind);
  });
});
