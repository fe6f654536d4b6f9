/**
 * junit.xml for CI gates: one `<testsuite>` per rule area, one `<testcase>` per judged rule. FAIL is a
 * `<failure>` with the message, the counterexample and the replay command; ERROR (the rule could not be
 * judged: the target faulted or the suite did) is an `<error>` with the message, the exchange's curl line
 * and the replay command, counted in `errors`; SKIP is `<skipped>` with the
 * reason; KNOWN (a FAIL or ERROR the known-deviations file accepts) is `<skipped>` with the accepted reason,
 * counted in `skipped`, and the evidence in `<system-out>`; WARN passes with the advisory in `<system-out>`. Rules no test judged (NONE) are left out:
 * the coverage table of report.html and results.json lists them.
 */
import { escapeXml, escapeXmlAttribute } from '@erpcert/contract';
import type { FailureEntry, ResultsDocument, RuleResult } from '@erpcert/runs';

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function failureText(f: FailureEntry): string {
  return [
    ...(f.causedBy?.length
      ? [
          `Follows from ${f.causedBy.join(', ')}: the failing run's data passed through that behaviour, which FAILed in this run.`,
          '',
        ]
      : []),
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
  const open = `    <testcase classname="${escapeXmlAttribute(rule.area)}" name="${escapeXmlAttribute(`${rule.id}: ${rule.title}`)}" time="${time}"`;
  if (rule.verdict === 'PASS') return `${open}/>`;
  if (rule.verdict === 'SKIP')
    return `${open}>\n      <skipped message="${escapeXmlAttribute(rule.reason ?? 'skipped')}"/>\n    </testcase>`;
  if (rule.verdict === 'KNOWN' && rule.known !== null) {
    const k = rule.known;
    const message = `KNOWN (${k.verdict}), accepted by the baseline: ${k.reason || 'no reason given yet'}${k.expires ? `; expires ${k.expires}` : ''}${k.ticket ? `; ${k.ticket}` : ''}`;
    const evidence = rule.failures
      .map((i) => doc.failures[i]!)
      .map(failureText)
      .join('\n\n----\n\n');
    return `${open}>\n      <skipped message="${escapeXmlAttribute(message)}"/>${evidence ? `\n      <system-out>${escapeXml(evidence)}</system-out>` : ''}\n    </testcase>`;
  }
  if (rule.verdict === 'WARN') {
    return `${open}>\n      <system-out>${escapeXml(`WARN (advisory, ${rule.standing}): ${rule.reason ?? ''}`)}</system-out>\n    </testcase>`;
  }
  const element = rule.verdict === 'ERROR' ? 'error' : 'failure';
  const failures = rule.failures.map((i) => doc.failures[i]!).filter((f) => f.verdict === rule.verdict);
  const first = failures[0];
  const body = failures.map(failureText).join('\n\n----\n\n');
  const standing =
    rule.verdict === 'FAIL' && rule.standing === 'inferred' ? ` (inferred: ${rule.inferredFrom ?? ''})` : '';
  const type = rule.verdict === 'ERROR' ? 'not judged' : rule.kind;
  const fallback = rule.verdict === 'ERROR' ? 'could not be judged' : 'failed';
  // a follower says so first, in the message and as a property, so that a CI view groups it under its cause
  const causes = rule.verdict === 'FAIL' && rule.causedBy?.length ? rule.causedBy : undefined;
  const follows = causes ? `follows from ${causes.join(', ')}: ` : '';
  const properties = causes
    ? `\n      <properties><property name="causedBy" value="${escapeXmlAttribute(causes.join(','))}"/></properties>`
    : '';
  return (
    `${open}>${properties}\n      <${element} message="${escapeXmlAttribute(follows + (first?.message ?? rule.reason ?? fallback) + standing)}" type="${escapeXmlAttribute(type)}">` +
    `${escapeXml(body)}</${element}>\n    </testcase>`
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
      `  <testsuite name="${escapeXmlAttribute(area)}" tests="${rules.length}" failures="${n('FAIL')}" errors="${n('ERROR')}" skipped="${n('SKIP') + n('KNOWN')}" time="${time}" timestamp="${escapeXmlAttribute(doc.run.startedAt)}">`,
      ...rules.map((r) => testcase(r, doc, durationOf)),
      '  </testsuite>',
    ].join('\n');
  });
  const count = (v: string) => judged.filter((r) => r.verdict === v).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="erpcert conform ${escapeXmlAttribute(doc.run.target.url)}" tests="${judged.length}" failures="${count('FAIL')}" errors="${count('ERROR')}" skipped="${count('SKIP') + count('KNOWN')}" time="${seconds(doc.run.durationMs)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
