import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildah, imageExists } from './buildah';

const run = promisify(execFile);

const SUITE = 'bookworm';
const MIRROR = process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';
/** Kept between runs, outside the repository: debootstrap is most of a first run's time. */
const CACHE_DIR =
  process.env.VF_IMAGE_CACHE_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'verifactu-image');

/**
 * A Debian image with this machine's Node.js and npm, standing in for `node:20-bookworm-slim` where no registry of
 * base images is reachable: Debian bookworm made by `debootstrap --variant=minbase` (its root file system cached as a
 * tar under CACHE_DIR), plus the node binary running this test and the npm it ships with. The image stays in buildah's
 * store under a tag naming the Node.js version, so later runs reuse it.
 */
export async function testBaseImage(): Promise<string> {
  const tag = `localhost/verifactu-test-base:${SUITE}-node${process.versions.node}`;
  if (await imageExists(tag)) return tag;
  const rootfs = await debianRootfs();
  const npmDir = path.join((await run('npm', ['root', '-g'])).stdout.trim(), 'npm');
  const container = await buildah(['from', 'scratch']);
  try {
    await buildah(['add', container, rootfs, '/']);
    await buildah(['copy', container, process.execPath, '/usr/local/bin/node']);
    await buildah(['copy', container, npmDir, '/usr/local/lib/node_modules/npm']);
    await buildah([
      ...['run', '--isolation', 'chroot', container, '--'],
      ...[
        'sh',
        '-c',
        'ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx',
      ],
    ]);
    await buildah(['config', '--env', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', container]);
    await buildah(['commit', '--quiet', container, tag]);
  } finally {
    await buildah(['rm', container]).catch(() => undefined);
  }
  return tag;
}

async function debianRootfs(): Promise<string> {
  const tar = path.join(CACHE_DIR, `debian-${SUITE}-minbase.tar`);
  if (existsSync(tar)) return tar;
  mkdirSync(CACHE_DIR, { recursive: true });
  const dir = mkdtempSync(path.join(CACHE_DIR, 'rootfs-'));
  try {
    await run('debootstrap', ['--variant=minbase', SUITE, dir, MIRROR], { maxBuffer: 64 * 1024 * 1024 });
    await run('tar', ['-C', dir, '-cf', `${tar}.partial`, '.']);
    renameSync(`${tar}.partial`, tar);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return tar;
}
