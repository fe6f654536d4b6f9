import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type RunningServer, startServer } from '@erpcert/refserver';
import type { ResultsDocument } from '@erpcert/runs';
import { validateResults } from '@erpcert/runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandIO } from '../command.js';
import { main } from '../main.js';
import { parseArgs } from '../options.js';
import { filesContaining, xmlWellFormed } from '../reports/testing.js';
import { conform, runConform } from './conform.js';
import { conformSettings, permanentWritesOf } from './conform-settings.js';

const fixtures = (...names: string[]) => names.map((n) => `src/runner/fixtures/${n}.prop.ts`);
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'erpcert-conform-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function capture(): { io: CommandIO; stdout: () => string; stderr: () => string } {
  const out = new PassThrough();
  const err = new PassThrough();
  let o = '';
  let e = '';
  out.on('data', (d) => {
    o += d;
  });
  err.on('data', (d) => {
    e += d;
  });
  return { io: { out, err, env: {}, cwd: tempDir() }, stdout: () => o, stderr: () => e };
}

/** Runs `erpcert conform ARGS` in-process on fixture property files. */
async function conformOn(files: string[], args: string[], hooks: { signal?: AbortSignal } = {}) {
  const c = capture();
  const out = tempDir();
  const { values } = parseArgs('conform', conform.flags, [...args, '--out', out], {}, c.io.cwd);
  const code = await runConform(values, c.io, { include: files, signals: false, ...hooks });
  const read = (name: string) => readFileSync(join(out, name), 'utf8');
  const results = existsSync(join(out, 'results.json'))
    ? (JSON.parse(read('results.json')) as ResultsDocument)
    : undefined;
  return { code, out, read, results, stdout: c.stdout(), stderr: c.stderr() };
}

const verdicts = (doc: ResultsDocument | undefined, ids: string[]) =>
  ids.map((id) => doc?.rules.find((r) => r.id === id)?.verdict);

describe('erpcert conform against the embedded server, on fixtures', () => {
  const password = 'Zq9-sEcret pw/ä';
  let run: Awaited<ReturnType<typeof conformOn>>;
  beforeAll(async () => {
    run = await conformOn(fixtures('passing', 'failing', 'skipping', 'unspecified', 'advisory', 'leaky', 'writes'), [
      '--password',
      password,
    ]);
  }, 120_000);

  it('exits 1 on a FAIL and writes the four report files', () => {
    expect(run.code).toBe(1);
    for (const f of ['junit.xml', 'results.json', 'summary.md', 'report.html'])
      expect(existsSync(join(run.out, f))).toBe(true);
    expect(run.stdout).toContain(`Reports: ${run.out}`);
  });

  it('the terminal report opens with the coverage line, the one results.json carries', () => {
    const judged = run.results?.coverage.judged;
    expect(judged).toBeDefined();
    expect(judged!.byLoad.map((r) => r.id).sort()).toEqual(
      (run.results?.rules ?? [])
        .filter((r) => r.kind === 'performance' && r.standing === 'documented')
        .map((r) => r.id)
        .sort(),
    );
    const first = run.stdout.split('\n').find((l) => l.startsWith('Coverage: '));
    expect(first).toMatch(
      new RegExp(`^Coverage: ${judged!.judged} of ${judged!.total} documented observable rules judged`),
    );
    expect(run.stdout.indexOf('Coverage: ')).toBeLessThan(run.stdout.indexOf('Area '));
  });

  it('results.json matches results.schema.json and holds every rule with its verdict', () => {
    expect(validateResults(run.results).errors).toEqual([]);
    expect(run.results?.rules).toHaveLength(417);
    expect(
      verdicts(run.results, [
        'REST.QUERY.SORT_ASCENDING',
        'REST.QUERY.FILTER_AND',
        'PORTAL.LOOKUP.CAP50',
        'REST.ERRORS.BODY_FORMAT_NOT_SHOWN',
        'REST.WRITE.CREATE_FORM',
        'REST.QUERY.RANGE_FROM_TO',
        'REST.QUERY.FIELDS',
      ]),
    ).toEqual(['PASS', 'FAIL', 'SKIP', 'NONE', 'PASS', 'ERROR', 'SKIP']);
    // a PASS rests on observations; a rule no check observed is SKIP "not exercised"
    const rule = (id: string) => run.results?.rules.find((r) => r.id === id);
    expect(rule('REST.QUERY.SORT_ASCENDING')?.observations).toBe(3);
    expect(rule('REST.QUERY.FIELDS')).toMatchObject({
      observations: 0,
      reason: expect.stringMatching(/^not exercised/),
    });
    expect(run.results?.run).toMatchObject({ outcome: 'fail', exitCode: 1, profile: 'full', interrupted: false });
    expect(run.results?.run.target).toMatchObject({ embedded: true, user: 'erpcert', compcode: 1, otherCompcode: 2 });
  });

  it('a FAIL carries counterexample, seed, path, curl line and replay command', () => {
    const f = run.results?.failures.find((x) => x.rules.includes('REST.QUERY.FILTER_AND'));
    expect(f).toMatchObject({
      seed: 424242,
      path: '3:1:0',
      shrinks: 2,
      counterexample: '[{"CustCode":"C1","PayDeal":"30"}]',
    });
    expect(f?.replay).toBe('erpcert conform --only REST.QUERY.FILTER_AND --seed 424242 --path 3:1:0');
    expect(f?.curl).toContain('-u "$ERPCERT_USER:$ERPCERT_PASSWORD"');
    expect(run.stdout).toContain(
      'Reproduce with: erpcert conform --only REST.QUERY.FILTER_AND --seed 424242 --path 3:1:0',
    );
  });

  it('junit.xml is well-formed: one testcase per judged rule, failures, errors and skips marked', () => {
    const xml = run.read('junit.xml');
    expect(xmlWellFormed(xml)).toBe(true);
    expect(xml.match(/<testcase /g)).toHaveLength(run.results!.totals.rules - run.results!.totals.NONE);
    expect(xml).toMatch(/<testsuite name="REST.QUERY" tests="\d+" failures="1" errors="1"/);
    expect(xml).toMatch(/name="REST.QUERY.RANGE_FROM_TO: [^"]*"[^>]*>\s*<error message="expected 3 records, got 2"/);
    expect(xml).toContain('<skipped message="the target has no INVc records"/>');
    expect(xml).toContain('Reproduce with: erpcert conform --only REST.QUERY.FILTER_AND --seed 424242 --path 3:1:0');
  });

  it('summary.md has the totals, the area table and the replay commands', () => {
    const md = run.read('summary.md');
    expect(md).toMatch(/^\*\*Coverage: \d+ of \d+ documented observable rules judged/);
    expect(md).toMatch(/^## erpcert conform: FAIL \(2 rules failed, 1 rule could not be judged\)/m);
    expect(md).toMatch(/\| REST\.QUERY \| 15 \| \d+ \| 1 \| 1 \|/);
    expect(md).toContain('erpcert conform --only REST.QUERY.RANGE_FROM_TO\n');
  });

  it('cleans up the ledger: closes what has a close field, lists what stays', () => {
    const tag = run.results!.run.runTag;
    expect(run.results?.cleanup).toEqual({
      ledgerEntries: 2,
      deleted: 0,
      alreadyGone: 0,
      residue: [
        {
          register: 'INVc',
          key: `${tag}I`,
          company: 1,
          status: 'closed',
          reason: 'no documented delete; closed with Terminated=1',
        },
        {
          register: 'PDVc',
          key: `${tag}P`,
          company: 1,
          status: 'left',
          reason: 'no documented delete for PDVc and no field that closes it',
        },
      ],
    });
    expect(run.stdout).toContain(`1 record(s) of run ${tag} were left on the target`);
  });

  it('no output file and no terminal line holds the password in any form', () => {
    const forms = [password, encodeURIComponent(password), Buffer.from(`erpcert:${password}`).toString('base64')];
    expect(filesContaining(run.out, forms)).toEqual([]);
    for (const f of forms) {
      expect(run.stdout).not.toContain(f);
      expect(run.stderr).not.toContain(f);
    }
    // the leak was there to mask: the masked failure is reported
    expect(run.read('results.json')).toContain('the server echoed the password ***');
  });
});

describe('erpcert conform: selections and profiles', () => {
  it('--only selects rules: exit 0 when none of them fails, the matrix holds just them', async () => {
    const r = await conformOn(fixtures('passing', 'failing'), ['--only', 'REST.QUERY.LIMIT,REST.QUERY.FIELDS']);
    expect(r.code).toBe(0);
    expect(r.results?.rules.map((x) => [x.id, x.verdict])).toEqual([
      ['REST.QUERY.FIELDS', 'SKIP'], // the fixture passes without observing it: not exercised
      ['REST.QUERY.LIMIT', 'PASS'],
    ]);
    expect(r.results?.run.command).toBe('erpcert conform --only REST.QUERY.LIMIT,REST.QUERY.FIELDS');
  }, 60_000);

  it('an ERROR and nothing else exits 1: the target misbehaved or the suite did', async () => {
    const r = await conformOn(fixtures('failing'), ['--only', 'REST.QUERY.RANGE_FROM_TO']);
    expect(r.code).toBe(1);
    expect(r.results?.rules.map((x) => [x.id, x.verdict])).toEqual([['REST.QUERY.RANGE_FROM_TO', 'ERROR']]);
    expect(r.results?.totals).toMatchObject({ FAIL: 0, ERROR: 1 });
    expect(r.results?.run).toMatchObject({ outcome: 'fail', exitCode: 1 });
    expect(r.results?.failures.map((f) => [f.verdict, f.rules])).toEqual([['ERROR', ['REST.QUERY.RANGE_FROM_TO']]]);
    expect(r.stdout).toMatch(/^Total\s+1\s+0\s+0\s+1\s+0\s+0\s+0$/m);
    expect(r.stdout).toContain('ERROR REST.QUERY.RANGE_FROM_TO: expected 3 records, got 2');
    expect(r.read('junit.xml')).toMatch(/failures="0" errors="1"/);
    expect(validateResults(r.results).errors).toEqual([]);
  }, 60_000);

  it('--profile readonly: the writing test skips, nothing is created', async () => {
    const r = await conformOn(fixtures('writes'), ['--profile', 'readonly']);
    expect(r.code).toBe(0);
    expect(verdicts(r.results, ['REST.WRITE.CREATE_FORM'])).toEqual(['SKIP']);
    expect(r.results?.cleanup).toEqual({ ledgerEntries: 0, deleted: 0, alreadyGone: 0, residue: [] });
  }, 60_000);

  it('an interrupted run exits 2 and still writes what is known', async () => {
    const stop = new AbortController();
    stop.abort();
    const r = await conformOn(fixtures('passing'), [], { signal: stop.signal });
    expect(r.code).toBe(2);
    expect(r.results?.run).toMatchObject({ interrupted: true, outcome: 'error', exitCode: 2 });
  }, 60_000);
});

describe('erpcert conform: the target is checked first', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, seed: 0, user: 'ci', password: 'right', log: () => {} });
  });
  afterAll(async () => {
    await server.close();
  });

  it('refused credentials: exit 2 with the reason, nothing run', async () => {
    const c = capture();
    const code = await main(
      ['conform', '--target', server.url, '--user', 'ci', '--password', 'wrong', '--out', join(c.io.cwd, 'r')],
      c.io,
    );
    expect(code).toBe(2);
    expect(c.stderr()).toContain('the target refused the credentials: GET /api/1/ answered 401 for user "ci"');
    expect(c.stderr()).not.toContain('wrong');
    expect(existsSync(join(c.io.cwd, 'r'))).toBe(false);
  });

  it('an unreachable target: exit 2 with the reason, within the timeout', async () => {
    const c = capture();
    const closed = await startServer({ port: 0, seed: 0, log: () => {} });
    await closed.close(); // its port is free now: nothing answers there
    const code = await main(['conform', '--target', closed.url, '--timeout', '3'], c.io);
    expect(code).toBe(2);
    expect(c.stderr()).toMatch(/cannot reach the target: GET http:\/\/127\.0\.0\.1:\d+\/api\/1\/: ECONNREFUSED/);
  });
});

describe('erpcert conform: configuration errors exit 2 with what to do', () => {
  it.each([
    [['--only', 'NOPE.*'], '--only NOPE.* matches no rule'],
    [['--only', 'REST.$'], '--only: rule glob'],
    [['--path', '1:2'], '--path replays one run of a property and needs its --seed'],
    [['--seed', '1', '--path', 'x'], '--path must look like 3:1:0'],
    [['--target', 'https://u:p@erp.example.com'], 'put the credentials in --user and --password'],
    [['--target', 'ftp://erp'], '--target must be an http:// or https:// URL'],
    [['--shard', '3/2'], '--shard must be i/n with 1 <= i <= n'],
    [['--pace', '0'], '--pace must be a positive number'],
    [['--runs', '0'], '--runs must be at least 1'],
    [['--fixture-prefix', 'fx 1'], '--fixture-prefix: a fixture prefix is 4 to 16 upper-case letters'],
    [['--profile', 'loose'], '--profile from the command line must be one of readonly, full, gate, strict'],
    [['--max-retries', '-1'], '--max-retries must be 0 or more'],
    [['--max-retry-wait', '0'], '--max-retry-wait must be a positive number of seconds'],
    [['--max-retry-wait', 'soon'], '--max-retry-wait must be a positive number of seconds'],
    [['--target', 'https://erp.example.com', '--other-compcode', '2'], '--other-compcode needs --compcode'],
    [['--compcode', '3', '--other-compcode', '3'], '--other-compcode must name another company than --compcode'],
    [['--other-compcode', '1'], '--other-compcode must name another company than --compcode'],
    [['--baseline', 'a.yaml', '--write-baseline', 'b.yaml'], '--baseline and --write-baseline name different files'],
    [['--strict-baseline'], '--strict-baseline needs --baseline FILE'],
    [['--baseline', 'missing.yaml'], 'missing.yaml: no such file (--write-baseline FILE writes one). Nothing was run.'],
  ])('%j', async (args, message) => {
    const c = capture();
    expect(await main(['conform', ...args], c.io)).toBe(2);
    expect(c.stderr()).toContain(message);
  });
});

describe('erpcert conform --other-compcode', () => {
  it('comes from the flag, ERPCERT_OTHER_COMPCODE or erpcert.config.json, and --help names it', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'erpcert.config.json'), JSON.stringify({ 'other-compcode': 4 }));
    const from = (argv: string[], env: Record<string, string>) =>
      parseArgs('conform', conform.flags, argv, env, cwd).values['other-compcode'];
    expect(from(['--other-compcode', '2'], { ERPCERT_OTHER_COMPCODE: '3' })).toBe(2);
    expect(from([], { ERPCERT_OTHER_COMPCODE: '3' })).toBe(3);
    expect(from([], {})).toBe(4);
    const c = capture();
    expect(await main(['conform', '--help'], c.io)).toBe(0);
    expect(c.stdout()).toMatch(/--other-compcode N +a second company whose data differs/);
  });
});

describe('erpcert conform --allow-permanent-writes', () => {
  it('comes from the flag, ERPCERT_ALLOW_PERMANENT_WRITES or erpcert.config.json; off by default; --help names it', async () => {
    const cwd = tempDir();
    const from = (argv: string[], env: Record<string, string>) =>
      conformSettings(parseArgs('conform', conform.flags, argv, env, cwd).values, cwd, new Date()).allowPermanentWrites;
    expect(from([], {})).toBe(false);
    expect(from(['--allow-permanent-writes'], {})).toBe(true);
    expect(from([], { ERPCERT_ALLOW_PERMANENT_WRITES: '1' })).toBe(true);
    writeFileSync(join(cwd, 'erpcert.config.json'), JSON.stringify({ conform: { 'allow-permanent-writes': true } }));
    expect(from([], {})).toBe(true);
    expect(from([], { ERPCERT_ALLOW_PERMANENT_WRITES: 'false' })).toBe(false);
    const c = capture();
    expect(await main(['conform', '--help'], c.io)).toBe(0);
    expect(c.stdout()).toMatch(/--allow-permanent-writes +with --target: also run the tests that leave/);
  });

  it.each([
    [undefined, false, false, 'embedded'],
    [undefined, true, false, 'embedded'],
    ['http://erp:1', false, true, 'embedded'],
    ['http://erp:1', true, false, 'allowed'],
    ['http://erp:1', false, false, 'refused'],
  ] as const)('target %s, opt-in %s, disposable %s: %s', (target, allow, disposable, want) => {
    const s = { ...(target !== undefined ? { target } : {}), allowPermanentWrites: allow };
    expect(permanentWritesOf(s, disposable)).toBe(want);
  });

  it('a value that is not true or false: exit 2, nothing run', async () => {
    const c = capture();
    const code = await main(['conform', '--only', 'PORTAL.EVENTS.REGISTERAPI'], {
      ...c.io,
      env: { ERPCERT_ALLOW_PERMANENT_WRITES: 'maybe' },
    });
    expect(code).toBe(2);
    expect(c.stderr()).toContain('--allow-permanent-writes from ERPCERT_ALLOW_PERMANENT_WRITES must be true or false');
    expect(existsSync(join(c.io.cwd, 'reports'))).toBe(false);
  });
});
