#!/usr/bin/env node
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { VerifactuClient } from '../client.ts';
import { VerifactuError } from '../errors.ts';
import { AUTHORITY_URL, doctorCommand } from './doctor-command.ts';
import { MAX_BATCH, registerCommand } from './register-command.ts';

const USAGE = `verifactu <command> [options]

  register <file.json|file.csv>   register invoices, 1,000 a call (one JSON line per invoice)
    [--batch-size n]              fewer a call (1 to 1,000), e.g. on a slow link
  status <invoice-id> [--wait]    the invoice's authority status (--wait: until it is final)
  list [--status s] [--limit n]   invoices, newest first, one JSON line each
  export [--out file.csv]         the CSV export of every invoice
  verify-chain <nif>              the taxpayer's chain: huellas, links and signatures
  doctor                          the service reachable, the key valid, certificates, the clocks
    [--authority-url url]         whose Date header is the authority's clock (or VERIFACTU_AUTHORITY_URL;
                                  default ${AUTHORITY_URL})

  --url <url>        the service (or VERIFACTU_URL)
  --api-key <key>    the account's key (or VERIFACTU_API_KEY)
`;

const OPTIONS = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  wait: { type: 'boolean' },
  status: { type: 'string' },
  limit: { type: 'string' },
  out: { type: 'string' },
  'batch-size': { type: 'string' },
  'authority-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function batchSize(value: string | undefined): number {
  if (value === undefined) return MAX_BATCH;
  const size = Number(value);
  if (!Number.isInteger(size) || size < 1 || size > MAX_BATCH)
    throw new Error(`--batch-size must be a whole number from 1 to ${MAX_BATCH}`);
  return size;
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  const [command, argument] = positionals;
  const baseUrl = values.url ?? process.env.VERIFACTU_URL;
  if (values.help || !command || !baseUrl) {
    process.stderr.write(USAGE);
    return values.help ? 0 : 2;
  }
  const client = new VerifactuClient({ baseUrl, apiKey: values['api-key'] ?? process.env.VERIFACTU_API_KEY });
  const needs = (what: string) => {
    if (!argument) throw new Error(`${command} needs ${what}`);
    return argument;
  };
  switch (command) {
    case 'register':
      return registerCommand(client, needs('a file'), batchSize(values['batch-size']));
    case 'status': {
      const id = needs('an invoice id');
      print(values.wait ? await client.waitForFinalStatus(id) : await client.getInvoice(id));
      return 0;
    }
    case 'list': {
      let left = values.limit ? Number(values.limit) : Infinity;
      for await (const invoice of client.invoices(values.status ? { status: values.status } : {})) {
        if (left-- <= 0) break;
        process.stdout.write(`${JSON.stringify(invoice)}\n`);
      }
      return 0;
    }
    case 'export': {
      const csv = await client.exportInvoicesCsv();
      if (values.out) await writeFile(values.out, csv);
      else process.stdout.write(csv);
      return 0;
    }
    case 'verify-chain': {
      const verification = await client.verifyChain(needs('a NIF'));
      print(verification);
      return verification.valid ? 0 : 1;
    }
    case 'doctor':
      return doctorCommand(client, values['authority-url'] ?? process.env.VERIFACTU_AUTHORITY_URL ?? AUTHORITY_URL);
    default:
      throw new Error(`unknown command ${command}\n\n${USAGE}`);
  }
}

run(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    const fields = error instanceof VerifactuError ? error.errors.map((e) => `\n  ${e.field}: ${e.code} ${e.message}`).join('') : '';
    process.stderr.write(`${String(error instanceof Error ? error.message : error)}${fields}\n`);
    process.exitCode = 1;
  },
);
