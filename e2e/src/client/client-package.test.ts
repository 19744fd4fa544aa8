import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// The TypeScript client as npm would publish it (npm pack of its compiled build), installed alone in a project
// outside the repository beside only the dependencies it declares: both module kinds load, its command runs, and a
// TypeScript project type-checks against it.
const ROOT = path.resolve(__dirname, '../../..');
const CLIENT = path.join(ROOT, 'clients/typescript');
const run = promisify(execFile);

const dir = mkdtempSync(path.join(tmpdir(), 'vf-client-package-'));
const consumer = path.join(dir, 'consumer');
const installed = path.join(consumer, 'node_modules/verifactu-client');
let files: string[];
let manifest: { dependencies?: Record<string, string>; peerDependencies?: Record<string, string>; bin: Record<string, string> };

/** A repository package linked into the consumer's node_modules (npm would have installed it). */
function link(name: string): void {
  const target = path.join(consumer, 'node_modules', name);
  mkdirSync(path.dirname(target), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules', name), target, 'dir');
}

beforeAll(async () => {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], { cwd: CLIENT });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  files = packed.files.map((f) => f.path).sort();
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', path.join(dir, packed.filename), '-C', installed, '--strip-components', '1']);
  manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as typeof manifest;
  for (const name of Object.keys(manifest.dependencies ?? {})) link(name);
  writeFileSync(path.join(consumer, 'package.json'), '{ "name": "consumer", "private": true }');
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the package holds its ES module and CommonJS builds with their types, and nothing of the service', () => {
  expect(files).toEqual(
    expect.arrayContaining(['package.json', 'README.md', 'esm/index.js', 'esm/index.d.ts', 'cjs/index.js', 'cjs/index.d.ts']),
  );
  expect(files.filter((f) => !/^(esm|cjs)\/.+\.(js|d\.ts)$|^(esm|cjs)\/package\.json$|^package\.json$|^README\.md$/.test(f))).toEqual([]);
  expect(files.filter((f) => f.includes('.test.'))).toEqual([]);
  expect(files).toContain(manifest.bin.verifactu.replace(/^\.\//, ''));
  const declared = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  expect(declared.filter((name) => name.startsWith('@vf/'))).toEqual([]);
});

test('it loads as a CommonJS and as an ES module, with the same exports, and its command runs', async () => {
  const names = async (args: string[]) => (await run(process.execPath, args, { cwd: consumer })).stdout.trim();
  const required = await names(['-e', "console.log(Object.keys(require('verifactu-client')).sort().join())"]);
  const imported = await names([
    '--input-type=module',
    '-e',
    "const m = await import('verifactu-client'); console.log(Object.keys(m).filter((k) => k !== 'default').sort().join())",
  ]);
  expect(required.split(',')).toEqual(expect.arrayContaining(['VerifactuClient', 'VerifactuError', 'verifyWebhook']));
  expect(imported).toBe(required);
  const help = await run(process.execPath, [path.join(installed, manifest.bin.verifactu), '--help'], { cwd: consumer });
  expect(help.stderr).toContain('verifactu <command> [options]');
});

test('a TypeScript project type-checks against its declarations, as ES module and CommonJS, strict and with lib checks', async () => {
  link('@types/node');
  const use = `import { VerifactuClient, VerifactuError, type InvoiceRequest } from 'verifactu-client';
const client = new VerifactuClient({ baseUrl: 'https://verifactu.example.com', apiKey: 'vfk_example' });
export async function register(body: InvoiceRequest): Promise<string> {
  try {
    const id: string = (await client.registerInvoice(body)).id;
    return (await client.waitForFinalStatus(id)).authority_status;
  } catch (error) {
    if (error instanceof VerifactuError) return error.errors.map((e) => \`\${e.field}: \${e.code}\`).join();
    throw error;
  }
}
`;
  writeFileSync(path.join(consumer, 'use.mts'), use);
  writeFileSync(path.join(consumer, 'use.cts'), use);
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  const options = ['--noEmit', '--strict', '--skipLibCheck', 'false', '--target', 'es2022', '--lib', 'es2022', '--types', 'node'];
  // Node's own resolution: use.mts reads the ES module build's declarations, use.cts the CommonJS build's.
  const checked = await run(
    process.execPath,
    [tsc, ...options, '--module', 'nodenext', '--moduleResolution', 'nodenext', 'use.mts', 'use.cts'],
    {
      cwd: consumer,
    },
  ).catch((error: { stdout: string }) => error);
  expect(checked.stdout).toBe('');
}, 120_000);
