import { withAdmin } from './test-database';

export default async function globalTeardown(): Promise<void> {
  const template = process.env.VF_TEST_TEMPLATE_DB;
  if (template) await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`));
}
