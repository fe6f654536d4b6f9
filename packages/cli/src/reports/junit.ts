/**
 * junit.xml for CI gates: one `<testsuite>` per rule area, one `<testcase>` per judged rule. FAIL is a
 * `<failure>` with the message, the counterexample and the replay command; ERROR (the rule could not be
 * judged: the target faulted or the suite did) is an `<error>` with the message, the exchange's curl line
 * and the replay command, counted in `errors`; SKIP is `<skipped>` with the
 * reason; KNOWN (a FAIL or ERROR the known-deviations file accepts) is `<skipped>` with the accepted reason,
 * counted in `skipped`, and the evidence in `<system-out>`; WARN passes with the advisory in `<system-out>`. Rules no test judged (NONE) are left out:
 * the coverage table of report.html and results.json lists them.
 */
import type { FailureEntry, ResultsDocument, RuleResult } from '@erpcert/runs';

/** Characters XML 1.0 does not allow at all (C0 controls other than tab, LF, CR; lone surrogates; U+FFFE/F). */
const INVALID_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the characters XML forbids is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for an XML element or attribute; characters XML cannot hold become U+FFFD. */
export function xmlEscape(text: string): string {
  return text
    .replace(INVALID_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Attribute values also keep their line breaks and tabs (otherwise normalised to spaces by parsers). */
function attr(text: string): string {
  return xmlEscape(text).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function failureText(f: FailureEntry): string {
  return [
    f.message,
    ...(f.counterexample !== null ? ['', `Counterexample: ${f.counterexample}`] : []),
    ...(f.seed !== null
      ? [
          `Seed: ${f.seed}${f.path !== null ? `, path: ${f.path}` : ''}${f.shrinks !== null ? `, shrunk ${f.shrinks} times` : ''}`,
        ]
      : []),
    ...(f.curl !== null ? ['', `Last request: ${f.curl}`] : []),
    '',
    `Reproduce with: ${f.replay}`,
    `Test: ${f.test}`,
  ].join('\n');
}

function testcase(rule: RuleResult, doc: ResultsDocument, durationOf: (testId: string) => number): string {
  const time = seconds(rule.tests.reduce((sum, t) => sum + durationOf(t), 0));
  const open = `    <testcase classname="${attr(rule.area)}" name="${attr(`${rule.id}: ${rule.title}`)}" time="${time}"`;
  if (rule.verdict === 'PASS') return `${open}/>`;
  if (rule.verdict === 'SKIP')
    return `${open}>\n      <skipped message="${attr(rule.reason ?? 'skipped')}"/>\n    </testcase>`;
  if (rule.verdict === 'KNOWN' && rule.known !== null) {
    const k = rule.known;
    const message = `KNOWN (${k.verdict}), accepted by the baseline: ${k.reason || 'no reason given yet'}${k.expires ? `; expires ${k.expires}` : ''}${k.ticket ? `; ${k.ticket}` : ''}`;
    const evidence = rule.failures
      .map((i) => doc.failures[i]!)
      .map(failureText)
      .join('\n\n----\n\n');
    return `${open}>\n      <skipped message="${attr(message)}"/>${evidence ? `\n      <system-out>${xmlEscape(evidence)}</system-out>` : ''}\n    </testcase>`;
  }
  if (rule.verdict === 'WARN') {
    return `${open}>\n      <system-out>${xmlEscape(`WARN (advisory, ${rule.standing}): ${rule.reason ?? ''}`)}</system-out>\n    </testcase>`;
  }
  const element = rule.verdict === 'ERROR' ? 'error' : 'failure';
  const failures = rule.failures.map((i) => doc.failures[i]!).filter((f) => f.verdict === rule.verdict);
  const first = failures[0];
  const body = failures.map(failureText).join('\n\n----\n\n');
  const standing =
    rule.verdict === 'FAIL' && rule.standing === 'inferred' ? ` (inferred: ${rule.inferredFrom ?? ''})` : '';
  const type = rule.verdict === 'ERROR' ? 'not judged' : rule.kind;
  const fallback = rule.verdict === 'ERROR' ? 'could not be judged' : 'failed';
  return (
    `${open}>\n      <${element} message="${attr((first?.message ?? rule.reason ?? fallback) + standing)}" type="${attr(type)}">` +
    `${xmlEscape(body)}</${element}>\n    </testcase>`
  );
}

/** Renders junit.xml from a results document. */
export function renderJunit(doc: ResultsDocument): string {
  const durations = new Map(doc.tests.map((t) => [t.id, t.durationMs ?? 0]));
  const durationOf = (id: string) => durations.get(id) ?? 0;
  const judged = doc.rules.filter((r) => r.verdict !== 'NONE');
  const areas = [...new Set(judged.map((r) => r.area))];
  const suites = areas.map((area) => {
    const rules = judged.filter((r) => r.area === area);
    const n = (v: string) => rules.filter((r) => r.verdict === v).length;
    const time = seconds(rules.flatMap((r) => r.tests).reduce((s, t) => s + durationOf(t), 0));
    return [
      `  <testsuite name="${attr(area)}" tests="${rules.length}" failures="${n('FAIL')}" errors="${n('ERROR')}" skipped="${n('SKIP') + n('KNOWN')}" time="${time}" timestamp="${attr(doc.run.startedAt)}">`,
      ...rules.map((r) => testcase(r, doc, durationOf)),
      '  </testsuite>',
    ].join('\n');
  });
  const count = (v: string) => judged.filter((r) => r.verdict === v).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="erpcert conform ${attr(doc.run.target.url)}" tests="${judged.length}" failures="${count('FAIL')}" errors="${count('ERROR')}" skipped="${count('SKIP') + count('KNOWN')}" time="${seconds(doc.run.durationMs)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
