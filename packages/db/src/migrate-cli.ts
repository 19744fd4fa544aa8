import { loadConfig } from '@vf/config';
import { migrateDatabase } from './migrate';

migrateDatabase(loadConfig().databaseUrl)
  .then(() => console.log('database migrated'))
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
