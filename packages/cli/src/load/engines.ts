/**
 * The two load engines and the scenario catalogue, in one place for the CLI.
 */
export {
  closedLoop,
  LoadConfigError,
  type LoadRunOptions,
  LoadTargetError,
  newLoadRunTag,
  runAutocannonScenario,
} from '@erpcert/load-autocannon';
export {
  type DocumentedFigure,
  K6Error,
  type K6ScenarioOptions,
  k6Path,
  type LoadScenario,
  type LoadScenarioResult,
  type ReadFigure,
  runK6Scenario,
  type ScenarioName,
  scenarios,
} from '@erpcert/load-k6';
