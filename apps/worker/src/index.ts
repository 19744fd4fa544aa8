export { createWorkerRuntime, type WorkerRuntime, type WorkerRuntimeOptions } from './create-worker-runtime';
export { sendRemissionStep, type RemissionStep, type SendRemissionDeps } from './remissions/send-remission-job';
