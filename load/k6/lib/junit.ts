/**
 * JUnit XML of one scenario run: one testcase per gating threshold (the documented figures, checks, dropped
 * iterations), so that a CI server shows which figure failed. Pure; runs inside k6's handleSummary.
 */
import type { LoadScenarioResult } from '../scenarios/catalogue.ts';

/** Escapes text for an XML attribute or element. */
export function escapeXml(value: string): string {
  const escaped = value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
  return Array.from(escaped)
    .filter((c) => {
      const code = c.charCodeAt(0);
      return code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d; // the only controls XML 1.0 allows
    })
    .join('');
}

/** The JUnit document (`testsuites` > `testsuite` > `testcase`, failures with a message). */
export function junitXml(result: LoadScenarioResult): string {
  // a run that produced no summary has no thresholds: one testcase stands for the run itself
  const thresholds =
    result.thresholds !== undefined && result.thresholds.length > 0
      ? result.thresholds
      : [
          {
            metric: 'run',
            expression: 'completed',
            title: 'k6 ran the scenario to its end',
            ok: result.verdict !== 'fail',
          },
        ];
  const failures = thresholds.filter((t) => !t.ok).length;
  const suite = `erpcert.load.${result.engine}.${result.scenario}`;
  const cases = thresholds.map((t) => {
    const name = escapeXml(`${t.metric} ${t.expression}: ${t.title}`);
    const open = `    <testcase classname="${escapeXml(suite)}" name="${name}" time="0">`;
    if (t.ok) return `${open}</testcase>`;
    const message = escapeXml(`${t.metric} ${t.expression} did not hold`);
    return `${open}\n      <failure message="${message}" type="threshold">${escapeXml(result.reason)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="erpcert load" tests="${thresholds.length}" failures="${failures}" errors="0" time="${result.durationSeconds}">`,
    `  <testsuite name="${escapeXml(suite)}" tests="${thresholds.length}" failures="${failures}" errors="0" skipped="0" time="${result.durationSeconds}">`,
    '    <properties>',
    `      <property name="verdict" value="${result.verdict}"/>`,
    `      <property name="reason" value="${escapeXml(result.reason)}"/>`,
    '    </properties>',
    ...cases,
    `    <system-out>${escapeXml(result.reason)}</system-out>`,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
