import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunEvent, RunEvents, type TestEvent } from '../runner/events.js';
import { runSuite } from '../runner/run-suite.js';
import { INDECISIVE, type Profile } from '../runner/verdict.js';

// A stand-in target (issue 28): three contacts; every POST to CUVc refused with HTTP 400 and a JSON error (what
// a server does that refuses a request the docs accept), every POST to IVVc answered HTTP 500 (a fault).
const CONTACTS = ['A', 'B', 'C'].map((c) => ({ '@register': 'CUVc', '@url': `/api/1/CUVc/${c}`, Code: c, Name: c }));
let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    const register = /^\/api\/1\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? 'X';
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', sequence: '7' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && register === 'CUVc')
      return json(400, { error: { '@code': '1011', '@description': 'the body holds no CUVc record' } });
    if (req.method === 'POST') return json(500, { error: { '@code': '1', '@description': 'internal failure' } });
    const limit = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('limit') ?? '1000');
    const records = register === 'CUVc' ? CONTACTS.slice(0, limit) : [];
    json(200, { data: { '@register': register, '@sequence': '7', '@systemversion': '1', [register]: records } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

async function run(profile: Profile) {
  const events = new RunEvents();
  const seen: RunEvent[] = [];
  events.on((e) => {
    seen.push(e);
  });
  await runSuite({
    env: { ERPCERT_TARGET: base, ERPCERT_USER: 'u', ERPCERT_PASSWORD: 'pw', ERPCERT_PROFILE: profile },
    profile,
    events,
    include: ['src/harness/fixtures/verdicts.prop.ts'],
  });
  const tests = seen.filter((e): e is TestEvent => e.type === 'test');
  return (part: string) => tests.find((t) => t.name.includes(part))!;
}

// vitest runs the fixture in a child: give it time on a shared two-core machine
const SLOW = 90_000;

describe('a refusal FAILs the rule that allows the request; every PASS could have failed', () => {
  it(
    'a server of each kind gets the verdict issue 28 describes',
    async () => {
      const byName = await run('full');
      // HTTP 400 to a JSON POST with @register: FAIL of the rule that says it is accepted, with the exchange
      const refused = byName('a refused JSON POST with @register');
      expect(refused.verdicts).toContainEqual({ rule: 'REST.WRITE.JSON_AT_REGISTER_OPTIONAL', verdict: 'FAIL' });
      expect(refused.failure?.message).toMatch(/the target refused it: HTTP 400, an error \(json-error\)/);
      expect(refused.failure?.exchanges.at(-1)?.response?.status).toBe(400);
      // a fixture request refused FAILs its own allowing rule, not the rule of the test that sent it
      const fixture = byName('a refused fixture form POST');
      expect(fixture.verdicts).toContainEqual({ rule: 'REST.WRITE.CREATE_FORM', verdict: 'FAIL' });
      expect(fixture.verdicts).toContainEqual({ rule: 'REST.WRITE.JSON_MANY_RECORDS', verdict: null });
      // a refusal of a request whose acceptance the docs leave open stays ERROR
      expect(byName('a refusal no test declared accepted').verdicts).toEqual([
        { rule: 'REST.WRITE.CREATE_JSON', verdict: 'ERROR' },
      ]);
      // a 5xx is a fault, never a refusal: ERROR, not a FAIL of the allowing rule
      const fault = byName('a 5xx to a request declared accepted');
      expect(fault.verdicts).toContainEqual({ rule: 'REST.WRITE.JSON_NO_AUTOFILL', verdict: 'ERROR' });
      expect(fault.verdicts.some((v) => v.verdict === 'FAIL')).toBe(false);
      // limit 5 on 3 records: a server ignoring limit answers alike, so no PASS
      const indecisive = byName('a limit above the register size');
      expect(indecisive.state).toBe('passed');
      expect(indecisive.verdicts).toContainEqual({
        rule: 'REST.QUERY.LIMIT',
        verdict: 'SKIP',
        reason: `${INDECISIVE}: CUVc holds 3 records, no more than limit 5`,
      });
      expect(indecisive.observations['REST.QUERY.LIMIT']).toBe(1);
      expect(indecisive.decisive?.['REST.QUERY.LIMIT'] ?? 0).toBe(0);
    },
    SLOW,
  );

  it(
    'the gate spends runs until an observation is decisive, not until the rule was seen at all',
    async () => {
      const byName = await run('gate');
      const walk = byName('examples down to a limit below the register size');
      // limits 5, 4, 3 observe LIMIT indecisively; the gate goes on to limit 2, the first decisive run
      expect(walk.verdicts).toContainEqual({ rule: 'REST.QUERY.LIMIT', verdict: 'PASS' });
      expect(walk.decisive?.['REST.QUERY.LIMIT']).toBe(1);
      expect(walk.observations['REST.QUERY.LIMIT']).toBe(4);
    },
    SLOW,
  );
});
