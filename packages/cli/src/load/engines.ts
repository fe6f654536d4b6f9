/**
 * The two load engines and the scenario catalogue, in one place for the CLI.
 *
 * @remarks Relative imports because packages/cli does not list `@erpcert/load-k6` and
 * `@erpcert/load-autocannon` among its dependencies yet (adding them needs a lockfile update); once it does,
 * these become package imports and nothing else changes.
 */
export {
  closedLoop,
  LoadConfigError,
  type LoadRunOptions,
  LoadTargetError,
  newLoadRunTag,
  runAutocannonScenario,
} from '../../../../load/autocannon/src/index.js';
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
} from '../../../../load/k6/src/index.js';
