/**
 * JUnit XML of one scenario run: one testcase per gating threshold (the documented figures, checks, dropped
 * iterations), so that a CI server shows which figure failed. Pure; runs inside k6's handleSummary. Text is escaped
 * by @erpcert/contract's escapers, bundled for k6 into dist/vendor/erpcert-text.js (scripts/build-vendor.mjs).
 */
import { escapeXml, escapeXmlAttribute } from '../dist/vendor/erpcert-text.js';
import type { LoadScenarioResult } from '../scenarios/catalogue.ts';

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
    const name = escapeXmlAttribute(`${t.metric} ${t.expression}: ${t.title}`);
    const open = `    <testcase classname="${escapeXmlAttribute(suite)}" name="${name}" time="0">`;
    if (t.ok) return `${open}</testcase>`;
    const message = escapeXmlAttribute(`${t.metric} ${t.expression} did not hold`);
    return `${open}\n      <failure message="${message}" type="threshold">${escapeXml(result.reason)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="erpcert load" tests="${thresholds.length}" failures="${failures}" errors="0" time="${result.durationSeconds}">`,
    `  <testsuite name="${escapeXmlAttribute(suite)}" tests="${thresholds.length}" failures="${failures}" errors="0" skipped="0" time="${result.durationSeconds}">`,
    '    <properties>',
    `      <property name="verdict" value="${result.verdict}"/>`,
    `      <property name="reason" value="${escapeXmlAttribute(result.reason)}"/>`,
    '    </properties>',
    ...cases,
    `    <system-out>${escapeXml(result.reason)}</system-out>`,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
