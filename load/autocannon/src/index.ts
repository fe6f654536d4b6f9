/**
 * @erpcert/load-autocannon: the six load scenarios of load/k6/scenarios/catalogue.ts on autocannon, for a run
 * that needs nothing but Node. {@link runAutocannonScenario} takes the k6 engine's options and returns the same
 * `LoadScenarioResult`.
 */
export {
  type CheckFailure,
  checkCreated,
  checkDocument,
  checkListPage,
  checkLookup,
  checkReadPage,
  checkSync,
  countElements,
  erpErrorOf,
  LOOK_CHARS,
  portalErrorOf,
  quickCheck,
  recordSequences,
  recordUrls,
  sampleEvery,
} from './checks.js';
export { autocannonVersion, type ClosedLoopResult, closedLoop } from './closed-loop.js';
export { generatorCpuMicros, measureGenerator } from './generator-load.js';
export { connectionsFor, type RunMeasurement, type RunPlan, runPlan, type ScenarioRequest } from './open-model.js';
export {
  DEFAULT_INFO_RATES,
  LoadConfigError,
  type LoadRunOptions,
  LoadTargetError,
  READ_BATCH,
  type SaturationOptions,
} from './options.js';
export {
  type CatalogueScenario,
  checkOptions,
  hardTimeoutMs,
  newLoadRunTag,
  offeredRate,
  runAutocannonScenario,
} from './run-scenario.js';
export { type SaturationCurve, saturate } from './saturation.js';
export { FULL_CHECK_EVERY, READ_REGISTER, TEN_FIELDS } from './sequences.js';
export { prepareScenario, type ScenarioData } from './setup.js';
export { type TargetRequests, targetRequests } from './target.js';
export { judge, judgeSaturation, type Verdict, type VerdictInput } from './verdict.js';
