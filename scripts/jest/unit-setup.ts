// Runs before each unit test file. Unit tests use no PostgreSQL, Redis or key pool (scripts/jest/test-projects.ts),
// yet in `npm test` the other projects' global setup has made them available to every test process. A unit test that
// reaches one anyway fails here as it would alone: the addresses below do not exist (.invalid never resolves), and the
// database template and the key pool are not there.
delete process.env.VF_TEST_TEMPLATE_DB;
process.env.VF_TEST_KEY_POOL = '/unit-tests-use-no-key-pool';
process.env.TEST_DATABASE_ADMIN_URL = 'postgres://postgres@unit-tests-use-no-postgresql.invalid/postgres';
process.env.DATABASE_URL = 'postgres://postgres@unit-tests-use-no-postgresql.invalid/verifactu';
process.env.REDIS_URL = 'redis://unit-tests-use-no-redis.invalid:6379';
