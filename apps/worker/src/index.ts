export { createWorkerRuntime, type WorkerRuntime, type WorkerRuntimeOptions } from './create-worker-runtime';
export { selectEndpoint } from './transport/select-endpoint';
