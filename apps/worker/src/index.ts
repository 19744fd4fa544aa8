export { createWorkerRuntime, type WorkerRuntime, type WorkerRuntimeOptions } from './create-worker-runtime';
export { loadWorkerSettings, type WorkerSettings } from './worker-settings';
export { selectEndpoint } from './transport/select-endpoint';
