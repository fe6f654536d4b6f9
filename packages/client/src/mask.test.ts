import { describe, expect, it } from 'vitest';
import { MASK, Masker, maskHeaderValue, maskJson, maskPairs, maskXml } from './mask.js';

describe('masking by position', () => {
  it.each([
    ['Authorization', 'Basic dTpw', 'Basic ***'],
    ['authorization', 'Bearer abc.def', 'Bearer ***'],
    ['Cookie', 'HSESSION=abc123; theme=dark', 'HSESSION=***; theme=dark'],
    ['Set-Cookie', 'HSESSION=abc123; Path=/; HttpOnly', 'HSESSION=***; Path=/; HttpOnly'],
    ['Content-Type', 'text/xml', 'text/xml'],
  ])('header %s: %s', (name, value, want) => {
    expect(maskHeaderValue(name, value)).toBe(want);
  });

  it.each([
    ['password=x&user=u', 'password=***&user=u'],
    ['set_field.Password=abc&set_field.Name=Bob', 'set_field.Password=***&set_field.Name=Bob'],
    [
      'grant_type=client_credentials&client_secret=s3&client_id=c',
      'grant_type=client_credentials&client_secret=***&client_id=c',
    ],
    ['set_field%2EPassword=abc', 'set_field%2EPassword=***'],
    ['token_type=Bearer', 'token_type=Bearer'],
  ])('pairs %s', (input, want) => {
    expect(maskPairs(input)).toBe(want);
  });

  it('masks JSON members named like secrets and keeps the formatting', () => {
    const text = '{\n  "access_token": "tok\\"en", "expires_in": 3600,\n  "nested": {"Password": 1234, "Name": "x"}\n}';
    expect(maskJson(text)).toBe(
      `{\n  "access_token": "${MASK}", "expires_in": 3600,\n  "nested": {"Password": "${MASK}", "Name": "x"}\n}`,
    );
  });

  it('masks XML elements and attributes named like secrets', () => {
    expect(
      maskXml('<data><UserVc><Password>pw</Password><Name>n</Name></UserVc><res password="x" errstr=""/></data>'),
    ).toBe(
      `<data><UserVc><Password>${MASK}</Password><Name>n</Name></UserVc><res password="${MASK}" errstr=""/></data>`,
    );
  });
});

describe('Masker.scrub (by value)', () => {
  it('replaces a secret and its encoded forms anywhere', () => {
    const m = new Masker();
    m.addSecret('p@ss wörd&"<x>');
    const text = [
      'p@ss wörd&"<x>',
      encodeURIComponent('p@ss wörd&"<x>'),
      'p%40ss+w%C3%B6rd%26%22%3Cx%3E',
      JSON.stringify('p@ss wörd&"<x>'),
      'p@ss wörd&amp;&quot;&lt;x&gt;',
    ].join(' | ');
    expect(m.scrub(text)).toBe(`${MASK} | ${MASK} | ${MASK} | "${MASK}" | ${MASK}`);
  });

  it('scrubs the base64 Basic credential', () => {
    const m = new Masker();
    m.addBasic('alice', 'wonderland');
    const credential = Buffer.from('alice:wonderland').toString('base64');
    expect(m.scrub(`seen ${credential} here`)).toBe(`seen ${MASK} here`);
  });

  it('ignores secrets too short to scrub safely', () => {
    const m = new Masker();
    m.addSecret('ab');
    expect(m.scrub('abc')).toBe('abc');
  });

  it('masks URLs by parameter name and by value', () => {
    const m = new Masker();
    m.addSecret('sess-1234');
    expect(m.url('http://h/x?password=a%20b&id=sess-1234&q=1')).toBe(`http://h/x?password=${MASK}&id=${MASK}&q=1`);
  });
});
