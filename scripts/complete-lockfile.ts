/**
 * `npm run lock:complete`: the npm registry reachable from this workplace lacks some platform builds of native
 * packages (e.g. @swc/core-darwin-arm64 at the version we use). `npm install` then leaves those optional
 * dependencies out of package-lock.json, and `npm ci` refuses the lock file. This adds each missing optional
 * platform package with its os/cpu/libc, so `npm ci` validates the lock and skips them on other platforms.
 * Run it after any `npm install` that changes the lock file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

interface LockEntry {
  version?: string;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
}

const OSES = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openharmony', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPUS = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32'];

/** Platform of a package named like `@scope/pkg-darwin-arm64` or `pkg-linux-arm-musleabihf`; undefined if not platform-specific. */
export function platformOf(name: string): Pick<LockEntry, 'os' | 'cpu' | 'libc'> | undefined {
  const parts = name.split('/').pop()!.split('-');
  const osAt = parts.findIndex((p) => OSES.includes(p));
  const cpu = parts.slice(osAt + 1).find((p) => CPUS.includes(p));
  if (osAt < 0 || !cpu) return undefined;
  const os = parts[osAt];
  const libc = os === 'linux' ? [parts.some((p) => p.startsWith('musl')) ? 'musl' : 'glibc'] : undefined;
  return { os: [os], cpu: [cpu], ...(libc && { libc }) };
}

function main(): void {
  const file = path.resolve(__dirname, '../package-lock.json');
  const lock = JSON.parse(readFileSync(file, 'utf8')) as { packages: Record<string, LockEntry> };
  const added: string[] = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const nested = `${key ? `${key}/` : ''}node_modules/${dep}`;
      const hoisted = `node_modules/${dep}`;
      if (lock.packages[nested] || lock.packages[hoisted]) continue;
      const platform = platformOf(dep);
      if (!platform) continue;
      lock.packages[hoisted] = { version, optional: true, ...platform };
      added.push(`${dep}@${version}`);
    }
  }
  const sorted = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
  writeFileSync(file, JSON.stringify({ ...lock, packages: sorted }, null, 2) + '\n');
  console.log(added.length ? `added ${added.length} platform entries:\n  ${added.join('\n  ')}` : 'lock file already complete');
}

if (require.main === module) main();
