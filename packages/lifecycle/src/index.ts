export { LIVE_PATH, probeAnswer, READY_PATH, type ProbeAnswer } from './probe-answer';
export {
  inspectDependencies,
  Readiness,
  type DependencyProbes,
  type DependencyReport,
  type Phase,
  type ReadinessReport,
} from './readiness';
export { stopOnSignals, type StopOnSignalsOptions } from './stop-on-signals';
export { waitFor, type WaitForOptions } from './wait-for';
export { withTimeout } from './with-timeout';
