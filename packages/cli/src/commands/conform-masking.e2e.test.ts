/**
 * Issue 9 "Masking": `erpcert conform`, the real CLI path, against a reference server started with each of the
 * passwords `rules`, `test`, `data`, `erpcert1`, `p` and a random 40-character one, behind a proxy that breaks
 * REST.QUERY.SORT_ASCENDING (so that the report carries failing exchanges, with their credentials) and echoes
 * the password back where credentials stand: a `Set-Cookie` value, a header and a JSON member named like a
 * password. For each password: results.json validates and keeps every key of a run's structure, junit.xml
 * parses, and neither the password nor the Basic credential appears in a file or on the terminal.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { escapeRegExp } from '@erpcert/contract';
import { startServer } from '@erpcert/refserver';
import type { ResultsDocument } from '@erpcert/runs';
import { validateResults } from '@erpcert/runs';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { MIN_SECRET_LENGTH } from '../reports/secrets.js';
import { xmlWellFormed } from '../reports/testing.js';
import { type Mutant, startProxy } from '../selftest/proxy.js';
import { editRecords, isJson, queryOf, restRegister, text, withText } from '../selftest/wire.js';

const USER = 'erpcert';
const RULE = 'REST.QUERY.SORT_ASCENDING';
const RANDOM = randomBytes(30).toString('base64url'); // 40 characters
const PASSWORDS = ['rules', 'test', 'data', 'erpcert1', 'p', RANDOM];

const work = mkdtempSync(join(tmpdir(), 'erpcert-masking-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Sorted lists come back descending (a FAIL with exchanges), and the password is echoed where secrets stand. */
function echoingMutant(password: string): Mutant {
  return {
    id: 'sort-descending-echoing-password',
    description: 'sort=<field> orders descending; the answer echoes the password in a cookie, a header and a member',
    breaks: [RULE],
    response(req, res) {
      const register = restRegister(req);
      if (req.method !== 'GET' || !register || !queryOf(req).has('sort')) return res;
      let out = editRecords(res, register, (records) => [...records].reverse());
      if (isJson(out)) {
        const doc = JSON.parse(text(out)) as Record<string, unknown>;
        out = withText(out, JSON.stringify({ ...doc, password: password }));
      }
      return {
        ...out,
        headers: { ...out.headers, 'set-cookie': `remember_me=${password}; Path=/`, 'x-erp-password': password },
      };
    },
  };
}

/**
 * Where the password shows in `text` as a credential: the Basic credential, `password=`, `"password": "..."`
 * (also JSON inside JSON), `x-erp-password: ...`, a cookie value; and, for a password long enough to be
 * searched for at all (MIN_SECRET_LENGTH), any occurrence in any form.
 */
function leaks(content: string, password: string): string[] {
  const basic = Buffer.from(`${USER}:${password}`).toString('base64');
  const value = `(?:${escapeRegExp(password)}|${escapeRegExp(encodeURIComponent(password))})(?![\\w%])`;
  const patterns = [
    new RegExp(escapeRegExp(basic)),
    new RegExp(`password\\\\?"?\\s*[:=]\\s*\\\\?"?${value}`, 'i'),
    new RegExp(`(?:remember_me|HSESSION)=${value}`, 'i'),
  ];
  if (password.length >= MIN_SECRET_LENGTH)
    patterns.push(new RegExp(escapeRegExp(password)), new RegExp(escapeRegExp(encodeURIComponent(password))));
  return patterns.flatMap((p) => (p.test(content) ? [p.source] : []));
}

/** Every key path of a JSON value, array indexes collapsed (`failures[].exchanges[].request.url`). */
function keyPaths(value: unknown, at = '', into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keyPaths(v, `${at}[]`, into);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      into.add(`${at}.${k}`);
      keyPaths(v, `${at}.${k}`, into);
    }
  return into;
}

/** Paths of the document's own structure: not the header names of exchanges, which the target chooses. */
const structure = (doc: unknown) => [...keyPaths(doc)].filter((p) => !/\.headers\./.test(p)).sort();

async function conformWith(password: string) {
  const server = await startServer({ port: 0, seed: 0, user: USER, password, log: () => {} });
  const proxy = await startProxy(server.url, echoingMutant(password));
  const out = join(work, `run-${PASSWORDS.indexOf(password)}`);
  let terminal = '';
  const o = new PassThrough();
  const e = new PassThrough();
  o.on('data', (d) => {
    terminal += d;
  });
  e.on('data', (d) => {
    terminal += d;
  });
  try {
    const args = [
      'conform',
      '--target',
      proxy.url,
      '--user',
      USER,
      '--only',
      RULE,
      '--runs',
      '8',
      '--seed',
      '1',
      '--out',
      out,
    ];
    const code = await main(args, { out: o, err: e, env: { ERPCERT_PASSWORD: password }, cwd: work });
    const files = Object.fromEntries(readdirSync(out).map((f) => [f, readFileSync(join(out, f), 'utf8')]));
    return { code, out, files, terminal, doc: JSON.parse(files['results.json']!) as ResultsDocument, proxy };
  } finally {
    await proxy.close();
    await server.close();
  }
}

describe('conform with passwords that are also ordinary words', () => {
  let reference: string[] | undefined;

  it.each(PASSWORDS.map((p) => [p === RANDOM ? 'a random 40-character one' : p, p]).reverse())(
    'password %s: valid results.json with every key, junit.xml parses, no credential in a file or on the terminal',
    async (_label, password) => {
      const run = await conformWith(password);
      // the mutant fired and was caught: the report carries failing exchanges with credentials in them
      expect(run.proxy.hits.responses).toBeGreaterThan(0);
      expect(run.code, run.terminal).toBe(1);
      expect(run.doc.rules.find((r) => r.id === RULE)?.verdict).toBe('FAIL');
      const exchanges = run.doc.failures.flatMap((f) => f.exchanges);
      expect(exchanges.length).toBeGreaterThan(0);
      expect(exchanges.some((x) => x.response?.headers['x-erp-password'] === '***')).toBe(true);
      for (const x of exchanges) {
        const { authorization, cookie } = x.request.headers;
        expect(authorization ?? cookie).toMatch(/^(Basic |HSESSION=)\*\*\*$/);
      }

      // the recorded data keeps its own words: every REST answer still opens with its `data` member or element
      const bodies = exchanges.map((x) => x.response?.body ?? '').filter((b) => b !== '');
      expect(bodies.length).toBeGreaterThan(0);
      for (const b of bodies) expect(b).toMatch(/^\s*(\{\s*"data"\s*:|(<\?xml[^>]*>\s*)?<data[\s>])/);

      expect(validateResults(run.doc).errors).toEqual([]);
      expect(xmlWellFormed(run.files['junit.xml']!)).toBe(true);
      // the random password cannot stand for a key: its run gives the structure the others must keep
      const keys = structure(run.doc);
      reference ??= keys;
      expect(keys).toEqual(reference);
      expect(keys).toContain('.rules');
      expect(keys.some((k) => k.includes('***'))).toBe(false);
      expect(run.doc.rules.map((r) => r.id)).toContain(RULE);

      for (const f of ['junit.xml', 'results.json', 'summary.md', 'report.html']) expect(run.files).toHaveProperty([f]);
      for (const [name, content] of Object.entries(run.files)) expect(leaks(content, password), name).toEqual([]);
      expect(leaks(run.terminal, password), 'terminal').toEqual([]);
    },
    300_000,
  );
});
