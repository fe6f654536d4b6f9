/**
 * The conformance runner: runs the properties with vitest, turns outcomes into verdicts and events, and
 * cleans up what the run created. `erpcert conform` (packages/cli) drives it and writes the reports.
 *
 * `runSuite` lives in './run-suite.js' and is not re-exported here: it loads vitest's Node API (seconds of
 * start-up), which only the run itself needs; import it from there, lazily.
 */

export { type FixtureAccount, fixtureFiles, readFixtureAccounts } from '../harness/fixture-accounts.js';
export {
  DEFAULT_FIXTURE_PREFIX,
  FIXTURE_SETS,
  type FixtureSetSpec,
  fixtureCodes,
  fixturePrefixProblem,
  fixtureSchemeText,
  isFixtureCode,
} from '../harness/fixture-scheme.js';
export type {
  ConformanceMeta,
  FailureDetail,
  FailureKind,
  RecordedExchange,
  TargetFault,
  ThrottleCounts,
} from '../harness/meta.js';
export { TARGET_ENV } from '../harness/meta.js';
export { TRANSPORT_RULES } from '../harness/target-fault.js';
export {
  CLOSE_FIELDS,
  type CleanupOptions,
  type CleanupReport,
  cleanUp,
  PORTAL_DELETE_REGISTERS,
  portalOutcome,
  type ResidueEntry,
  UNOK_DELETE_REGISTERS,
} from './cleanup.js';
export type { ModuleEndEvent, RunEndEvent, RunEvent, RunListener, RunStartEvent, TestEvent } from './events.js';
export { RunEvents } from './events.js';
export { appendLedger, type LedgerContents, type LedgerEntry, readLedger } from './ledger.js';
export { ConformanceReporter, type ConformanceReporterOptions } from './reporter.js';
export { namePatternFor, rulesInName } from './rule-tags.js';
export type { SuiteRunOptions, SuiteRunResult } from './run-suite.js';
export { newRunTag, RUN_TAG_PATTERN } from './run-tag.js';
export {
  basicAuth,
  checkTarget,
  encodeKey,
  portalUrl,
  restRootUrl,
  restUrl,
  send,
  type TargetCheck,
  type TargetConnection,
  type TargetResponse,
  TargetUnreachableError,
} from './target-http.js';
export {
  combineVerdicts,
  INDECISIVE,
  NOT_EXERCISED,
  namedRules,
  PROFILES,
  type Profile,
  type RuleVerdict,
  type TestOutcome,
  type TestVerdicts,
  VERDICTS,
  type Verdict,
  verdictsOf,
  violatedRules,
} from './verdict.js';
