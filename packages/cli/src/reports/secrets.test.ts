import { describe, expect, it } from 'vitest';
import { MASK, scrubSecrets, secretForms } from './secrets.js';

describe('secretForms', () => {
  it('has the password as is, URL-encoded and in the Basic credential', () => {
    const forms = secretForms('ci', 'p@ss word/1');
    expect(forms).toContain('p@ss word/1');
    expect(forms).toContain('p%40ss%20word%2F1');
    expect(forms).toContain('p%40ss+word%2F1');
    expect(forms).toContain(Buffer.from('ci:p@ss word/1').toString('base64'));
  });

  it('is empty without a password', () => {
    expect(secretForms('ci', undefined)).toEqual([]);
    expect(secretForms('ci', '')).toEqual([]);
  });

  it('keeps the public default password of the reference server readable, but not its Basic credential', () => {
    expect(secretForms('erpcert', 'erpcert')).toEqual([Buffer.from('erpcert:erpcert').toString('base64')]);
  });
});

describe('scrubSecrets', () => {
  it('masks every occurrence of every form', () => {
    const secrets = secretForms('u', 's3cr3t!');
    const basic = Buffer.from('u:s3cr3t!').toString('base64');
    const text = `password=s3cr3t%21 and s3cr3t! again; Authorization: Basic ${basic}`;
    const got = scrubSecrets(text, secrets);
    expect(got).toBe(`password=${MASK} and ${MASK} again; Authorization: Basic ${MASK}`);
    expect(got).not.toContain('s3cr3t');
  });
});
