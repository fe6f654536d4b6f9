import { describe, expect, it } from 'vitest';
import type { RecordedExchange } from './runner.js';
import { MASK, MIN_SECRET_LENGTH, maskData, maskExchange, maskingWriter, runMasker } from './secrets.js';

const basic = (user: string, password: string) => Buffer.from(`${user}:${password}`).toString('base64');

/** An exchange that carries `password` in every place a credential stands, and the word in the data too. */
function exchange(user: string, password: string): RecordedExchange {
  const enc = encodeURIComponent(password);
  return {
    request: {
      method: 'POST',
      url: `http://${user}:${enc}@erp.example.com/api/1/IVVc?compcode=1&password=${enc}&HSESSION=${enc}`,
      headers: {
        authorization: `Basic ${basic(user, password)}`,
        cookie: `HSESSION=${password}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `set_field.Comment=rules&set_field.Password=${enc}`,
    },
    response: {
      status: 200,
      headers: { 'set-cookie': `HSESSION=${password}; Path=/`, 'content-type': 'application/json' },
      body: `{"data": {"rules": "test", "password": "${password}", "Comment": "data p"}}`,
    },
  };
}

describe('maskExchange: a secret of any length is masked where it stands', () => {
  it.each(['rules', 'test', 'data', 'p', 'erpcert1', 'Zq9-sEcret pw/ä'])('password %j', (password) => {
    const masker = runMasker('ci', password);
    const got = maskExchange(masker, exchange('ci', password));
    expect(got.request.url).toBe(
      `http://ci:${MASK}@erp.example.com/api/1/IVVc?compcode=1&password=${MASK}&HSESSION=${MASK}`,
    );
    expect(got.request.headers).toEqual({
      authorization: `Basic ${MASK}`,
      cookie: `HSESSION=${MASK}`,
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(got.request.body).toBe(`set_field.Comment=rules&set_field.Password=${MASK}`);
    expect(got.response?.headers['set-cookie']).toBe(`HSESSION=${MASK}; Path=/`);
    // keys and ordinary values stay, whatever the password
    expect(got.response?.body).toBe(`{"data": {"rules": "test", "password": "${MASK}", "Comment": "data p"}}`);
  });
});

describe('maskData: the document is masked as data', () => {
  const doc = {
    rules: [{ id: 'REST.QUERY.COMPCODE', reason: 'rules test data', tests: ['p'] }],
    run: { command: 'erpcert conform --only REST.*', count: 3, ok: true, none: null },
  };

  it.each(['rules', 'test', 'data', 'p', 'REST', 'a'.repeat(MIN_SECRET_LENGTH - 1)])(
    'a password shorter than MIN_SECRET_LENGTH (%j) leaves keys, rule ids and words alone',
    (password) => {
      expect(maskData(runMasker('ci', password), doc)).toEqual(doc);
    },
  );

  it('a longer password is masked in every string value, never in a key', () => {
    const password = 'erpcert1';
    const leaky = {
      message: `the server echoed ${password}`,
      [password]: 'a key stays',
      nested: [{ text: `x${encodeURIComponent(password)}y` }],
      basic: `Basic ${basic('ci', password)}`,
    };
    expect(maskData(runMasker('ci', password), leaky)).toEqual({
      message: `the server echoed ${MASK}`,
      [password]: 'a key stays',
      nested: [{ text: `x${MASK}y` }],
      basic: `Basic ${MASK}`,
    });
  });

  it('finds exchanges at any depth and masks them by position', () => {
    const masked = maskData(runMasker('ci', 'p'), { failures: [{ exchanges: [exchange('ci', 'p')] }] });
    expect(masked.failures[0]!.exchanges[0]!.request.headers.authorization).toBe(`Basic ${MASK}`);
    expect(masked.failures[0]!.exchanges[0]!.request.body).toBe(`set_field.Comment=rules&set_field.Password=${MASK}`);
  });

  it('does not change its input', () => {
    const input = { e: exchange('ci', 'erpcert1') };
    const before = JSON.stringify(input);
    maskData(runMasker('ci', 'erpcert1'), input);
    expect(JSON.stringify(input)).toBe(before);
  });
});

describe('maskingWriter', () => {
  it('masks a long password and its Basic credential in terminal lines; a short one only in its credential', () => {
    const lines: string[] = [];
    const sink = { write: (t: string) => lines.push(t) };
    maskingWriter(sink, runMasker('ci', 'Wonder-Land-42')).write(`Wonder-Land-42 ${basic('ci', 'Wonder-Land-42')}\n`);
    maskingWriter(sink, runMasker('erpcert', 'p')).write(`p rules ${basic('erpcert', 'p')}\n`);
    expect(lines).toEqual([`${MASK} ${MASK}\n`, `p rules ${MASK}\n`]);
  });
});
