import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { recordOutput, type ServiceProcess } from '@vf/private-servers';

const run = promisify(execFile);

/** Runs buildah to its end; rejects with what it printed when it fails. */
export async function buildah(args: string[], opts: { maxBuffer?: number } = {}): Promise<string> {
  try {
    const { stdout } = await run('buildah', args, { maxBuffer: opts.maxBuffer ?? 64 * 1024 * 1024 });
    return stdout.trim();
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`buildah ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

export async function imageExists(name: string): Promise<boolean> {
  return buildah(['inspect', '--type', 'image', name]).then(
    () => true,
    () => false,
  );
}

export interface RunOptions {
  env?: Record<string, string>;
  /** host path -> container path */
  volumes?: Record<string, string>;
}

/**
 * A working container of an image, whose commands run with `buildah run --isolation chroot --network host`: no
 * container engine is needed, only buildah, and the container shares the host's network (its ports are the host's).
 */
export class Container {
  private constructor(readonly id: string) {}

  static async from(image: string, role: string): Promise<Container> {
    return new Container(await buildah(['from', '--name', `vf-image-test-${role}-${randomBytes(4).toString('hex')}`, image]));
  }

  private args(command: string[], opts: RunOptions): string[] {
    const env = Object.entries(opts.env ?? {}).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
    const volumes = Object.entries(opts.volumes ?? {}).flatMap(([host, inside]) => ['--volume', `${host}:${inside}`]);
    return ['run', '--isolation', 'chroot', '--network', 'host', ...env, ...volumes, this.id, '--', ...command];
  }

  /** Starts `command` in the container; its output is recorded. */
  start(command: string[], opts: RunOptions = {}): ServiceProcess {
    return recordOutput(spawn('buildah', this.args(command, opts), { stdio: ['ignore', 'pipe', 'pipe'] }));
  }

  /** Runs `command` in the container to its end. */
  async exec(command: string[], opts: RunOptions = {}): Promise<{ code: number; output: string }> {
    return run('buildah', this.args(command, opts)).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (err: { code?: number; stdout?: string; stderr?: string }) => ({
        code: err.code ?? 1,
        output: `${err.stdout ?? ''}${err.stderr ?? ''}`,
      }),
    );
  }

  async remove(): Promise<void> {
    await buildah(['rm', this.id]).catch(() => undefined);
  }
}
