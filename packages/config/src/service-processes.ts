/** The processes an operator runs, by role: what `npm run <role>` and the image's command start. */
export type ServiceRole = 'api' | 'worker' | 'sim' | 'migrate';

/**
 * Each role's compiled entry point, from the repository root (package.json's scripts and the Dockerfile's entry
 * point name the same files). Every process is plain Node running `dist/`: no TypeScript loader at run time.
 */
export const SERVICE_ENTRY_POINTS: Record<ServiceRole, string> = {
  api: 'apps/api/dist/main.js',
  worker: 'apps/worker/dist/main.js',
  sim: 'apps/authority-sim/dist/main.js',
  migrate: 'packages/db/dist/migrate-cli.js',
};

/**
 * Node flags of the long-running services (API, worker, simulator) wherever they are started: `npm start`,
 * `npm run api|worker|sim` and the image (both repeat them), the tests and the benchmark. A young generation of 2 MB per
 * semi-space instead of V8's 16 MB: under load the API answered more registrations per second with it, and used
 * less memory (docs/scaling.md).
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=2'];
