export { createWorkerRuntime, type WorkerRuntime, type WorkerRuntimeOptions } from './create-worker-runtime';
export { sendRemissionStep, type RemissionStep, type SendRemissionDeps } from './remissions/send-remission-job';
// The message a chain's sender would send, planned from its rows (pure): how a test reads the very bytes that go.
export { planMessage, type MessageInput, type PreparedMessage } from './sending/plan-message';
