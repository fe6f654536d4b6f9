/**
 * The conformance harness: rule-tagged tests and properties (`ruleTest`, `ruleProperty`), the worker's
 * client, reusable contract assertions, data helpers, arbitraries and the query model. Property files
 * under `properties/` import from here.
 */

export { accepted, describeRefusal, isRefusalAnswer, RequestRefused, refusedViolation } from './accepted.js';
export {
  type FilterChoice,
  fieldSubset,
  filterChoice,
  type MalformedParameter,
  type Mutation,
  malformedListParameter,
  offsetLimit,
  pageSize,
  type RangeChoice,
  rangeableValues,
  rangeChoice,
  registerName,
  resolveFilters,
  resolveRange,
  sortField,
} from './arbitraries.js';
export {
  assertEnvelope,
  assertEnvelopeRegister,
  assertEnvelopeSequence,
  assertEnvelopeSystemVersion,
  assertFormat,
  assertHasEnvelope,
  assertRecordsArray,
  assertSequenceAdvanced,
  assertSequenceHeader,
  ENVELOPE_CHECKS,
  type EnvelopeCheck,
  rawJson,
  sequenceOf,
} from './assert/envelope.js';
export { assertJsonStrings } from './assert/json-strings.js';
export {
  assertJsonListBody,
  assertListBody,
  LIST_BODY_RULE,
  listBodyViolation,
  violationOf,
} from './assert/list-body.js';
export {
  assertRecordShape,
  fieldNames,
  RECORD_CHECKS,
  type RecordCheck,
  type RecordShapeOptions,
  recordCheck,
  recordViolations,
} from './assert/record-shape.js';
export { assertSameRecords, recordDifference } from './assert/same-records.js';
export { assertJsonValid, assertXmlValid, type JsonSchemaRef, restEnvelopeSchema } from './assert/schemas.js';
export { Baselines, judgeStable, MAX_BASELINE_RECORDS, type RegisterData } from './baseline.js';
export { companiesDiffer, ONE_COMPANY, twoCompanies } from './companies.js';
export {
  type Created,
  createdByThisRun,
  createForm,
  createJson,
  deleteRecord,
  isRefusal,
  ledgerCreated,
  ledgerGone,
  type Probe,
  probe,
  readAll,
  registersWithData,
  tableRegistersWithData,
  tableRegisterWithData,
  UnledgeredRecordError,
  uniqueCode,
} from './data.js';
export { DECISIVE_CASES } from './decisive-cases.js';
export { type FixtureAccount, fixtureFiles, readFixtureAccounts } from './fixture-accounts.js';
export {
  DEFAULT_FIXTURE_PREFIX,
  FIXTURE_PREFIX_PATTERN,
  FIXTURE_SETS,
  type FixtureSetSpec,
  fixtureCode,
  fixtureCodes,
  fixtureFields,
  fixturePrefixProblem,
  fixtureSchemeText,
  fixtureTerm,
  isFixtureCode,
  LOOKUP_ITEMS,
} from './fixture-scheme.js';
export { fixtureSet, fixtureSkipReason } from './fixture-set.js';
export { GATE_EXAMPLE_PATIENCE, GATE_PATIENCE, GateBudget } from './gate-budget.js';
export type {
  ConformanceMeta,
  FailureDetail,
  FailureKind,
  RecordedExchange,
  TargetFault,
  ThrottleCounts,
} from './meta.js';
export { TARGET_ENV } from './meta.js';
export { type Decisiveness, decisiveCase, decisiveWhen, observe } from './observations.js';
export {
  ledgerPermanent,
  PERMANENT_WRITES_OPT_IN,
  type PermanentWrites,
  permanentWriteSkip,
} from './permanent-writes.js';
export { confirmed } from './preconditions.js';
export { combinationSeparates, parameterSeparates, type QueryParameter } from './query-decisive.js';
export {
  ascendingOrder,
  compareWithModel,
  describeQuery,
  isAscending,
  matchesFilters,
  modelRecords,
  type QuerySpec,
  type RangeSpec,
  rangeMembers,
  rangeParameter,
  type SingleParameter,
  singleParameters,
  toListQuery,
} from './query-model.js';
export { QUERY_CANDIDATES, QUERY_REGISTER_COUNT, queryRegisters } from './query-registers.js';
export { ExchangeRecorder, MAX_FAULTS, RECORDED_BODY_CHARS, toRecordedExchange } from './recorder.js';
export {
  type AnyRecord,
  asRestQuery,
  fieldValue,
  identityOf,
  isMetaMember,
  keyFromUrl,
  keyValues,
  type ListQuery,
  ledgerKey,
  rowsOf,
  urlOf,
} from './records.js';
export {
  allRegisterReads,
  bodyViolations,
  type Page,
  REGISTER_PAGE_SIZE,
  type RegisterRead,
  registerRead,
  type ValidPage,
  validPages,
} from './register-pages.js';
export {
  type Arbitraries,
  checkParameters,
  classifyFailure,
  DEFAULT_NUM_RUNS,
  propertyFailure,
  propertyFailureText,
  type RuleContext,
  type RuleIds,
  type RulePropertyOptions,
  type RuleTestOptions,
  ruleProperty,
  ruleTest,
  ruleTestName,
} from './rule-test.js';
export { type TargetConfig, TargetConfigError, targetFromEnv } from './target.js';
export { errorFault, exchangeFault, failureFormRule, isTargetFault, TRANSPORT_RULES } from './target-fault.js';
export {
  ContractViolation,
  expectRule,
  needShape,
  PreconditionFailed,
  requireRule,
  show,
  UnknownRuleError,
  violated,
} from './violation.js';
export { clientConfigFor, type WorkerSession, workerSession } from './worker-client.js';
export {
  type AccountVat,
  accountVatPairs,
  type Contact,
  cents,
  contactsWithTerms,
  itemCodes,
  readBack,
  suppliers,
} from './write-data.js';
