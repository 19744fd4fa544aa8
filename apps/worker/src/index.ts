export { createWorkerRuntime, type WorkerRuntime, type WorkerRuntimeOptions } from './create-worker-runtime';
