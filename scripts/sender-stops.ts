/**
 * `npm run sender-stops`: what the authority has suspended, and the operator's resume.
 *
 * When the authority answers 4141 (access suspended) for a certificate, the workers stop every send under it and
 * never retry on their own: only writing to the authority lifts a suspension. Once it has:
 *   npm run sender-stops                          lists the stopped certificates (fingerprint, holder, since)
 *   npm run sender-stops -- resume <fingerprint>  lifts the stop; the records it held go back in the queue and the
 *                                                 workers send them within one reconcile interval
 */
import { loadConfig } from '@vf/config';
import { createDatabase, senderStopStore } from '@vf/db';
import { createLogger } from '@vf/logger';

async function main(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger({ service: 'sender-stops', level: config.logLevel });
  const [command, fingerprint] = process.argv.slice(2);
  const database = createDatabase(config.databaseUrl, { max: 1, poolMode: config.databasePoolMode });
  try {
    if (command === undefined || command === 'list') {
      const stops = await senderStopStore.list(database.db);
      if (stops.length === 0) process.stdout.write('No certificate is stopped.\n');
      for (const s of stops)
        process.stdout.write(
          `${s.certificateFingerprint}  ${s.certificateSubject}  code ${s.code} since ${s.stoppedAt.toISOString()}: ${s.message}\n`,
        );
      return 0;
    }
    if (command === 'resume' && fingerprint) {
      const resumed = await database.db.transaction((tx) => senderStopStore.resume(tx, fingerprint));
      if (!resumed) {
        process.stderr.write(`No stopped certificate has the fingerprint ${fingerprint} (see: npm run sender-stops).\n`);
        return 1;
      }
      logger.info({ certificateFingerprint: fingerprint, records: resumed.length }, 'sending resumed by an operator');
      process.stdout.write(`Resumed ${fingerprint}: ${resumed.length} records back in the queue.\n`);
      return 0;
    }
    process.stderr.write('usage: npm run sender-stops [-- list | -- resume <fingerprint>]\n');
    return 2;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
