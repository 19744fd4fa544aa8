/**
 * `npm run backup-restored`: the operator declares that a backup of the service's database was restored.
 *
 * NO VERI*FACTU asks for an event when the system restores a backup (Orden HAC/1177/2024 art. 9.1, event 07): after
 * restoring one, run this with the service's environment, before the service takes invoices again:
 *   npm run backup-restored -- all [--note "text"]            every taxpayer operating as NO VERI*FACTU
 *   npm run backup-restored -- <taxpayer-id>... [--note "text"] only these taxpayers
 * The note (up to 100 characters) goes in each event as OtrosDatosEvento, e.g. which backup was restored.
 */
import { certificateSigner, declareBackupRestored, EVENT_TEXT_MAX } from '@vf/chain';
import { loadConfig } from '@vf/config';
import { createDatabase } from '@vf/db';
import { createLogger } from '@vf/logger';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const USAGE = 'usage: npm run backup-restored -- all | <taxpayer-id>... [--note "text, up to 100 characters"]\n';

function parse(args: string[]): { taxpayerIds?: string[]; note?: string } | undefined {
  const at = args.indexOf('--note');
  const note = at >= 0 ? args[at + 1]?.trim() : undefined;
  const targets = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
  if ((at >= 0 && !note) || (note && note.length > EVENT_TEXT_MAX) || targets.length === 0) return undefined;
  if (targets.length === 1 && targets[0] === 'all') return { note };
  return targets.every((id) => UUID.test(id)) ? { taxpayerIds: targets, note } : undefined;
}

async function main(): Promise<number> {
  const request = parse(process.argv.slice(2));
  if (!request) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = loadConfig();
  const logger = createLogger({ service: 'backup-restored', level: config.logLevel });
  const database = createDatabase(config.databaseUrl, { max: 1, poolMode: config.databasePoolMode });
  try {
    const signer = certificateSigner({
      db: database.db,
      masterKey: config.masterKey,
      platformCertificate: config.platformCertificate,
      clock: () => new Date(),
    });
    const { written, unsigned } = await declareBackupRestored(database.db, request, { signer, now: new Date() });
    logger.info({ written, unsigned: unsigned.length }, 'backup restore declared by an operator');
    process.stdout.write(`Event 07 (backup restored) written on ${written} chain(s) of events.\n`);
    if (unsigned.length > 0) {
      process.stderr.write(`Not written on ${unsigned.length} chain(s): no certificate can sign for them (${unsigned.join(', ')}).\n`);
      return 1;
    }
    return 0;
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
