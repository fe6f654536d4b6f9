export {
  type DocumentedFigure,
  type Latency,
  type LoadScenario,
  type LoadScenarioResult,
  type ScenarioName,
  scenarios,
} from '../scenarios/catalogue.js';
