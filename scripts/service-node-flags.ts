/**
 * Node flags of the service processes (API, worker, simulator) wherever this repository starts them: `npm start`,
 * `npm run api|worker|sim` (package.json repeats them) and the benchmark. A young generation of 2 MB per semi-space
 * instead of V8's 16 MB: under load the API answered more registrations per second with it, and used less memory
 * (docs/scaling.md).
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=2'];
