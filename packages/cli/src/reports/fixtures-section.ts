/**
 * The fixture set in the report (issue 11 "Fixtures that are reused, not re-created"): the records the suite
 * keeps on the target between runs, listed apart from the run's residue, with what they are, why they stay and
 * how many there are. Built from the accounts the test workers leave in the run folder.
 */
import { markdownCell } from '@erpcert/contract';
import type { FixtureSetInfo, FixturesInfo, ResultsDocument } from '@erpcert/runs';
import { esc } from './html.js';
import { FIXTURE_SETS, type FixtureAccount, fixtureCodes, fixtureSchemeText } from './runner.js';

/** The `fixtures` section of results.json from the workers' accounts (the last account of a set wins). */
export function fixturesInfo(prefix: string, accounts: readonly FixtureAccount[]): FixturesInfo {
  const sets: FixtureSetInfo[] = FIXTURE_SETS.map((set) => {
    const mine = accounts.filter((a) => a.set === set.id && a.prefix === prefix);
    const last = mine.at(-1);
    const codes = fixtureCodes(prefix, set);
    return {
      id: set.id,
      register: set.register,
      codes: `${codes[0]} to ${codes.at(-1)}`,
      count: set.count,
      purpose: set.purpose,
      why: set.why,
      rules: [...set.rules],
      status: last === undefined ? 'not-checked' : last.missing.length === 0 ? 'complete' : 'incomplete',
      present: last?.present ?? null,
      created: mine.reduce((n, a) => n + a.created, 0),
      repaired: mine.reduce((n, a) => n + a.repaired, 0),
      missing: last ? [...last.missing] : [],
      reason: last?.reason ?? null,
    };
  });
  return { prefix, scheme: fixtureSchemeText(prefix), sets };
}

function statusText(s: FixtureSetInfo): string {
  if (s.status === 'not-checked') return 'not looked up in this run (no selected test needs it)';
  const did = `${s.present} of ${s.count} on the target; ${s.created} created, ${s.repaired} repaired in this run`;
  return s.status === 'complete' ? did : `${did}; ${s.missing.length} missing${s.reason ? ` (${s.reason})` : ''}`;
}

/** The fixture section of summary.md. */
export function fixturesMd(doc: ResultsDocument): string[] {
  const f = doc.fixtures;
  if (!f) return [];
  return [
    '',
    '### Fixture set (kept on the target, not residue)',
    '',
    `Prefix \`${f.prefix}\` (\`--fixture-prefix\`); scheme: ${markdownCell(f.scheme)}. Runs reuse these records and put back what a person changed; no run creates them twice.`,
    '',
    '| Set | Register | Codes | Records | This run | Why it stays |',
    '|---|---|---|---:|---|---|',
    ...f.sets.map(
      (s) =>
        `| ${markdownCell(s.id)}: ${markdownCell(s.purpose)} | ${s.register} | \`${markdownCell(s.codes)}\` | ${s.count} | ${markdownCell(statusText(s))} | ${markdownCell(s.why)} |`,
    ),
  ];
}

/** The fixture section of report.html. */
export function fixturesHtml(doc: ResultsDocument): string {
  const f = doc.fixtures;
  if (!f) return '';
  const rows = f.sets.map(
    (s) =>
      `<tr data-status="${esc(s.status)}"><td>${esc(s.id)}: ${esc(s.purpose)}</td><td>${esc(s.register)}</td><td><code>${esc(s.codes)}</code></td><td class="n">${s.count}</td><td>${esc(statusText(s))}</td><td>${esc(s.why)}</td></tr>`,
  );
  return [
    '<h2 id="fixtures">Fixture set</h2>',
    `<p>Kept on the target between runs, and not part of this run's residue. Prefix <code>${esc(f.prefix)}</code> (<code>--fixture-prefix</code>); scheme: ${esc(f.scheme)}.</p>`,
    `<table id="fixtures-table"><thead><tr><th>Set</th><th>Register</th><th>Codes</th><th class="n">Records</th><th>This run</th><th>Why it stays</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
  ].join('\n');
}
