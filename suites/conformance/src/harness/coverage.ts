/**
 * Which rules the property files test: the rule ids in the names of the collected tests (`vitest list`,
 * which imports the files without running them, so generated names such as `REST.REGISTER.<CODE>` count),
 * compared with the rules that must be tested: `documented` or `inferred`, and observable.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Rule, type RuleApi, rules } from '@erpcert/contract';
import { conformConfigFile, suiteRoot } from '../runner/run-suite.js';

const run = promisify(execFile);

/** Rule ids in a test's full name: every id inside a `[...]` group. */
export function idsInName(name: string): string[] {
  const out: string[] = [];
  for (const group of name.matchAll(/\[([^\]]*)\]/g))
    out.push(...(group[1]!.match(/(?:REST|PORTAL)\.[A-Z0-9_]+\.[A-Z0-9_]+/g) ?? []));
  return out;
}

/** The rules a conformance run must judge: documented or inferred, observable by a black-box client. */
export function testableRules(api: RuleApi, list: readonly Rule[] = rules): Rule[] {
  return list.filter((r) => r.api === api && r.observable && r.standing !== 'unspecified');
}

/** The rule ids named by the tests of the property files (`vitest list --json` with the conformance config). */
export async function taggedRules(root: string = suiteRoot): Promise<Set<string>> {
  const vitest = join(root, 'node_modules', '.bin', 'vitest');
  const { stdout } = await run(vitest, ['list', '--config', conformConfigFile, '--json'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, CI: '1' },
  });
  const tests = JSON.parse(stdout) as { name: string }[];
  return new Set(tests.flatMap((t) => idsInName(t.name)));
}

/** The testable rules of `api` that no test names, in catalogue order. */
export function coverageGaps(api: RuleApi, tagged: ReadonlySet<string>, list: readonly Rule[] = rules): string[] {
  return testableRules(api, list)
    .map((r) => r.id)
    .filter((id) => !tagged.has(id));
}
