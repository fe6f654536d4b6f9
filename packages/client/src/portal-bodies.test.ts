import { closeXmlValidator, validateXml } from '@erpcert/contract';
import { afterAll, describe, expect, it } from 'vitest';
import {
  activeEditFieldsBody,
  decryptTriggerText,
  encryptTriggerText,
  fieldTriggerBody,
  postTextBody,
  uploadBody,
} from './portal-bodies.js';
import { parseXmlBody } from './xml-decode.js';

afterAll(async () => {
  await closeXmlValidator();
});

describe('encrypted field-trigger body (portal-action-api.md §4 "Field trigger")', () => {
  it('matches a hand-computed example', () => {
    // {"a":1} reversed is }1:"a"{ = 7D 31 3A 22 61 22 7B; base64 by hand: 7D313A -> fTE6, 226122 -> ImEi, 7B -> ew==
    expect(encryptTriggerText('{"a":1}')).toBe('fTE6ImEiew==');
    expect(decryptTriggerText('fTE6ImEiew==')).toBe('{"a":1}');
  });

  it.each([
    ['ASCII', { vcname: 'IVVc', fieldname: 'CustCode', value: '1001', rowindex: -1 }],
    [
      'non-ASCII (multi-byte UTF-8 reversed byte by byte)',
      { vcname: 'CUVc', fieldname: 'Name', value: 'Õun Ä € 😀', rowindex: -1 },
    ],
    [
      'rows and header values',
      {
        vcname: 'ORVc',
        fieldname: 'ArtCode',
        value: 'A',
        rowindex: 0,
        values: { header: { CustCode: 'C' }, rows: [{ stp: 1, ArtCode: 'A' }] },
      },
    ],
    ['an empty object', {}],
  ])('round-trips %s', (_name, request) => {
    const body = fieldTriggerBody(request, true);
    expect(body.contentType).toBe('text/plain; charset=UTF-8');
    expect(JSON.parse(decryptTriggerText(body.data as string))).toEqual(request);
    // and it is not plain base64 of the JSON: the bytes really are reversed
    expect(Buffer.from(body.data as string, 'base64').toString('utf8')).not.toBe(JSON.stringify(request));
  });

  it('sends plain JSON by default', () => {
    const body = fieldTriggerBody({ vcname: 'IVVc', fieldname: '__new', rowindex: -1 });
    expect(body).toEqual({
      contentType: 'application/json; charset=utf-8',
      data: '{"vcname":"IVVc","fieldname":"__new","rowindex":-1}',
    });
  });
});

describe('other portal bodies', () => {
  it('activeeditfields: base64 of the JSON {vcname, id}, as octet-stream', () => {
    const body = activeEditFieldsBody({ vcname: 'ORVc', id: '100001' });
    expect(body.contentType).toBe('application/octet-stream');
    expect(JSON.parse(Buffer.from(body.data as string, 'base64').toString('utf8'))).toEqual({
      vcname: 'ORVc',
      id: '100001',
    });
  });

  it('doupload: the XML body validates against the upload XSD and carries the bytes in base64', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const body = uploadBody('a&b <1>.bin', bytes);
    expect(body.contentType).toBe('application/xml; charset=UTF-8');
    expect((await validateXml(body.data as string, 'portal-upload-request')).valid).toBe(true);
    const file = (parseXmlBody(body.data as string).root as { file: { filename: string; base64: string } }).file;
    expect(file.filename).toBe('a&b <1>.bin');
    expect(Buffer.from(file.base64, 'base64')).toEqual(bytes);
  });

  it('posttext: form-encoded set_field.Math', () => {
    expect(postTextBody('<p>Hi & bye</p>').data).toBe('set_field.Math=%3Cp%3EHi%20%26%20bye%3C%2Fp%3E');
  });
});
