import { describe, expect, it } from 'vitest';
import { BodySyntaxError, decodeBody, escapeRawControlChars, sniffFormat } from './body-decode.js';

describe('decodeBody', () => {
  it.each([
    {
      name: 'XML error before data',
      body: '<error code="1058" description="Unknown customer" row="-1" field="CustCode"/><data register="IVVc"/>',
      errors: [{ code: '1058', description: 'Unknown customer', row: '-1', field: 'CustCode' }],
      messages: [],
    },
    {
      name: 'XML error alone, with text instead of a description',
      body: '<error>Record is locked</error>',
      errors: [{ description: 'Record is locked' }],
      messages: [],
    },
    {
      name: 'two errors and a message, then data',
      body: '<error code="1" description="a"/><error code="2" description="b" field="F"/><message description="m"/><data/>',
      errors: [
        { code: '1', description: 'a' },
        { code: '2', description: 'b', field: 'F' },
      ],
      messages: [{ description: 'm' }],
    },
    {
      name: 'an error inside data',
      body: '<data><error code="9" description="inside"/></data>',
      errors: [{ code: '9', description: 'inside' }],
      messages: [],
    },
    {
      name: 'a message with extra attributes',
      body: '<message description="warn" code="7"/><data/>',
      errors: [],
      messages: [{ description: 'warn', attrs: { code: '7' } }],
    },
    {
      name: 'JSON error object with @ members',
      body: '{"error":{"@code":"1058","@description":"Unknown customer","@field":"CustCode"}}',
      errors: [{ code: '1058', description: 'Unknown customer', field: 'CustCode' }],
      messages: [],
    },
    {
      name: 'JSON error list and messages',
      body: '{"error":[{"@code":"1","@description":"a"},{"code":"2","description":"b"}],"messages":[{"description":"w"}]}',
      errors: [
        { code: '1', description: 'a' },
        { code: '2', description: 'b' },
      ],
      messages: [{ description: 'w' }],
    },
    { name: 'a JSON envelope', body: '{"data":{"@register":"IVVc","IVVc":[]}}', errors: [], messages: [] },
  ])('$name', ({ body, errors, messages }) => {
    const decoded = decodeBody(body);
    expect(decoded.errors).toEqual(errors);
    expect(decoded.messages).toEqual(messages);
  });

  it.each([
    ['', 'empty'],
    ['  \r\n', 'empty'],
    ['Register has no synchronisation index', 'text'],
    ['\n<data/>', 'xml'],
    ['[1]', 'json'],
  ])('sniffs %j as %s', (body, format) => {
    expect(sniffFormat(body)).toBe(format);
    expect(decodeBody(body).format).toBe(format);
  });

  it('reads a JSON string holding raw control characters, as live servers send RLinkVc (issue 21)', () => {
    const raw = `{"data":{"@register":"RLinkVc","RLinkVc":[{"FromRecidStr":"${String.fromCharCode(2, 1)}SVOVc\\"${String.fromCharCode(10)}x"}]}}`;
    expect(() => JSON.parse(raw)).toThrow();
    const decoded = decodeBody(raw);
    expect((decoded.json as { data: { RLinkVc: { FromRecidStr: string }[] } }).data.RLinkVc[0]!.FromRecidStr).toBe(
      `${String.fromCharCode(2, 1)}SVOVc"${String.fromCharCode(10)}x`,
    );
    expect(escapeRawControlChars('{"a": 1}\n')).toBe('{"a": 1}\n');
  });

  it.each([['<data><a></data>'], ['{"data": ']])('throws BodySyntaxError for %j', (body) => {
    expect(() => decodeBody(body)).toThrow(BodySyntaxError);
  });
});
