/**
 * @erpcert/load-k6: the load scenarios in TypeScript for k6, and the Node API that runs them.
 * The catalogue and the result type are shared with the autocannon engine.
 */

export { junitXml } from '../lib/junit.js';
export { documentedVsMeasured, markdownReport } from '../lib/markdown.js';
export type { Gate, ReadPlan, ScenarioPlan, Stage } from '../lib/plan.js';
export { computeResult } from '../lib/result.js';
export {
  ACHIEVED_SHARE,
  brokenBecause,
  CPU_SHARE,
  EVENT_LOOP_DELAY_MS,
  generatorAdvice,
  generatorBound,
  generatorText,
  generatorTookMachine,
  judgeKnee,
  MACHINE_SHARE,
  machineBusyElsewhere,
  niceRate,
  type SaturationOptions,
  type StepOutcome,
  StepPlan,
  type StepPlanOptions,
  saturationWords,
} from '../lib/step-plan.js';
export type { K6Metric, K6SummaryData } from '../lib/summary-data.js';
export {
  type DocumentedFigure,
  type GeneratorLoad,
  type Latency,
  type LimitedBy,
  type LoadScenario,
  type LoadScenarioResult,
  type ReadFigure,
  type SaturationLimit,
  type SaturationStep,
  type ScenarioName,
  scenarios,
} from '../scenarios/catalogue.js';
export { K6Error, type K6ErrorKind } from './errors.js';
export { builtK6, k6Available, k6BuildCommand, k6MissingHint, k6Path } from './k6-binary.js';
export {
  type MachineCpuReading,
  type MachineCpuUse,
  machineCpuBetween,
  parseProcStat,
  readMachineCpu,
  statCpuMicros,
} from './machine-cpu.js';
export { mergeK6Summaries, resultOfSegments } from './merge-summaries.js';
export { failedResult, type K6ScenarioOptions, k6Env, k6OutputFiles } from './run-options.js';
export { hardTimeoutMs, type K6ScenarioRun, runK6Scenario, runK6ScenarioDetailed } from './run-scenario.js';
