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
 * Node flags of each role wherever it is started: `npm start`, `npm run api|worker|sim` and the image (both repeat
 * them), the tests and the benchmark. Measured under load (docs/scaling.md, Memory). The API and the simulator: a young
 * generation of 8 MB per semi-space instead of 2 MB lets more of a request's objects die young (a fifth less promoted
 * to the old generation, a quarter as many scavenges), and that saving pays for letting the old generation grow by
 * only 75% over what a full collection kept (`--heap-growing-percent`) instead of V8's up-to-fourfold, which collects
 * it about twice as often: the API's peak RSS under load about 50 MB lower for the same CPU per registration. The
 * worker keeps 2 MB semi-spaces: its garbage is a message's large strings and buffers, which a larger young generation
 * does not save from promotion, so the 12 MB more it commits are only RSS (20-25 MB lower peaks for the same CPU per
 * record). None is a cap: the heap still grows as far as live data needs. Migrations are short-lived and run bare.
 */
export const SERVICE_NODE_FLAGS: Record<ServiceRole, readonly string[]> = {
  api: ['--max-semi-space-size=8', '--heap-growing-percent=75'],
  worker: ['--max-semi-space-size=2', '--heap-growing-percent=75'],
  sim: ['--max-semi-space-size=8', '--heap-growing-percent=75'],
  migrate: [],
};
