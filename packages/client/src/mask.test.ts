import { describe, expect, it } from 'vitest';
import { MASK, Masker, MIN_SECRET_LENGTH, maskHeaderValue, maskJson, maskPairs, maskUrl, maskXml } from './mask.js';

describe('masking by position', () => {
  it.each([
    ['Authorization', 'Basic dTpw', 'Basic ***'],
    ['authorization', 'Bearer abc.def', 'Bearer ***'],
    ['Cookie', 'HSESSION=abc123; theme=dark', 'HSESSION=***; theme=***'],
    ['Cookie', 'a=1;b=2', 'a=***;b=***'],
    ['Set-Cookie', 'HSESSION=abc123; Path=/; HttpOnly', 'HSESSION=***; Path=/; HttpOnly'],
    [
      'Set-Cookie',
      'HSESSION=p; Expires=Wed, 21 Oct 2026 07:28:00 GMT, other=x; Path=/',
      'HSESSION=***; Expires=Wed, 21 Oct 2026 07:28:00 GMT, other=***; Path=/',
    ],
    ['X-Api-Token', 'p', '***'],
    ['Content-Type', 'text/xml', 'text/xml'],
    ['Sequence', '1234', '1234'],
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
    ['HSESSION=p&q=1', 'HSESSION=***&q=1'],
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

  it.each([
    ['content escaped as most writers do', `<pw>it's "q" &amp; &lt;x</pw>`],
    ['all five entities', '<pw>it&apos;s &quot;q&quot; &amp; &lt;x</pw>'],
    ['a double-quoted attribute that leaves the apostrophe', `<a pw="it's &quot;q&quot; &amp; &lt;x"/>`],
    ['a single-quoted attribute that leaves the double quote', `<a pw='it&apos;s "q" &amp; &lt;x'/>`],
  ])('finds a secret with quotes in XML: %s', (_, xml) => {
    const m = new Masker();
    m.addSecret(`it's "q" & <x`);
    expect(m.scrub(xml)).not.toMatch(/it|&lt;x/);
    expect(m.scrub(xml)).toContain(MASK);
  });

  it('scrubs the base64 Basic credential', () => {
    const m = new Masker();
    m.addBasic('alice', 'wonderland');
    const credential = Buffer.from('alice:wonderland').toString('base64');
    expect(m.scrub(`seen ${credential} here`)).toBe(`seen ${MASK} here`);
  });

  it.each(['p', 'test', 'data', 'rules', 'a'.repeat(MIN_SECRET_LENGTH - 1)])(
    'does not search free text for the short secret %j (ordinary words stay)',
    (secret) => {
      const m = new Masker();
      m.addBasic('erpcert', secret);
      const text = `{"rules": [], "tests": "data" } p ${secret}`;
      expect(m.scrub(text)).toBe(text);
      // where it stands it is masked all the same
      expect(m.url(`http://erpcert:${secret}@h/x?password=${secret}&q=${secret}`)).toBe(
        `http://erpcert:${MASK}@h/x?password=${MASK}&q=${secret}`,
      );
      expect(m.body(`set_field.Password=${secret}&x=1`, 'application/x-www-form-urlencoded')).toBe(
        `set_field.Password=${MASK}&x=1`,
      );
    },
  );

  it('searches free text for a secret of MIN_SECRET_LENGTH characters', () => {
    const m = new Masker();
    m.addSecret('erpcert1');
    expect(m.scrub('erpcert erpcert1 erpcert12')).toBe(`erpcert ${MASK} ${MASK}2`);
  });

  it('masks the password of a URL user-info, whatever it is', () => {
    expect(maskUrl('https://u:p@h:8080/a?b=1')).toBe(`https://u:${MASK}@h:8080/a?b=1`);
    expect(maskUrl('https://h/a@b?c=d')).toBe('https://h/a@b?c=d');
    expect(maskUrl('/api/1/IVVc?password=x#f')).toBe(`/api/1/IVVc?password=${MASK}#f`);
  });

  it('masks URLs by parameter name and by value', () => {
    const m = new Masker();
    m.addSecret('sess-1234');
    expect(m.url('http://h/x?password=a%20b&id=sess-1234&q=1')).toBe(`http://h/x?password=${MASK}&id=${MASK}&q=1`);
  });
});
