/**
 * The two load engines and the scenario catalogue, in one place for the CLI.
 */
export {
  autocannonVersion,
  closedLoop,
  LoadConfigError,
  type LoadRunOptions,
  LoadTargetError,
  newLoadRunTag,
  runAutocannonScenario,
} from '@erpcert/load-autocannon';
export {
  builtK6,
  type DocumentedFigure,
  K6Error,
  type K6ScenarioOptions,
  k6MissingHint,
  k6Path,
  type LimitedBy,
  type LoadScenario,
  type LoadScenarioResult,
  type ReadFigure,
  runK6Scenario,
  type SaturationLimit,
  type SaturationStep,
  type ScenarioName,
  scenarios,
} from '@erpcert/load-k6';
