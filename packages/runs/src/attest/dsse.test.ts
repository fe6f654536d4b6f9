import { describe, expect, it } from 'vitest';
import { base64Bytes, EnvelopeFormatError, pae, parseEnvelopeLines } from './dsse.js';

describe('pae', () => {
  it('encodes the DSSE protocol test vector', () => {
    // DSSE protocol.md "Test cases": type http://example.com/HelloWorld, body "hello world"
    expect(pae('http://example.com/HelloWorld', Buffer.from('hello world')).toString('latin1')).toBe(
      'DSSEv1 29 http://example.com/HelloWorld 11 hello world',
    );
  });

  it('counts bytes, not characters', () => {
    expect(pae('t', Buffer.from('ä', 'utf8')).toString('utf8')).toBe('DSSEv1 1 t 2 ä');
    expect(pae('t', Buffer.alloc(0)).toString('latin1')).toBe('DSSEv1 1 t 0 ');
  });
});

describe('parseEnvelopeLines', () => {
  const good = { payloadType: 't', payload: 'aGk=', signatures: [{ keyid: 'k', sig: 'c2ln' }] };
  it('reads one envelope line', () => {
    expect(parseEnvelopeLines(`${JSON.stringify(good)}\n`)).toEqual(good);
  });

  it.each([
    ['two envelopes', `${JSON.stringify(good)}\n${JSON.stringify(good)}\n`, /2 envelopes/],
    ['no envelope', '\n', /0 envelopes/],
    ['not JSON', '{', /not JSON/],
    ['no payloadType', JSON.stringify({ ...good, payloadType: 1 }), /payloadType/],
    ['no payload', JSON.stringify({ ...good, payload: undefined }), /payload string/],
    ['no signatures', JSON.stringify({ ...good, signatures: [] }), /no signatures/],
    ['a signature without sig', JSON.stringify({ ...good, signatures: [{ keyid: 'k' }] }), /signature 1/],
  ])('refuses %s', (_name, text, message) => {
    expect(() => parseEnvelopeLines(text)).toThrow(EnvelopeFormatError);
    expect(() => parseEnvelopeLines(text)).toThrow(message);
  });
});

describe('base64Bytes', () => {
  it('decodes standard base64 and refuses other characters', () => {
    expect(base64Bytes('aGVsbG8=', 'x').toString()).toBe('hello');
    expect(() => base64Bytes('aGV*bG8=', 'x')).toThrow(/not base64/);
    expect(() => base64Bytes('aGVsbG8', 'x')).toThrow(/not base64/);
  });
});
