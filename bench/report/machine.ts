import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import IORedis from 'ioredis';
import { Client } from 'pg';
import { adminUrl, redisUrl } from '../stack/scratch';
import type { MachineDescription } from './result-types';

function osName(): string {
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync('/etc/os-release', 'utf8'));
    if (pretty) return `${pretty[1]} (${os.type()} ${os.release()})`;
  } catch {
    // Not Linux, or no os-release: the kernel's name is enough.
  }
  return `${os.type()} ${os.release()}`;
}

async function postgresVersion(): Promise<string> {
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return (await client.query<{ server_version: string }>('SHOW server_version')).rows[0].server_version;
  } finally {
    await client.end();
  }
}

async function redisVersion(): Promise<string> {
  const redis = new IORedis(redisUrl(), { maxRetriesPerRequest: 1, lazyConnect: true });
  await redis.connect();
  try {
    return /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? 'unknown';
  } finally {
    redis.disconnect();
  }
}

export async function describeMachine(): Promise<MachineDescription> {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cpus: cpus.length,
    memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    os: osName(),
    node: process.version,
    postgres: await postgresVersion(),
    redis: await redisVersion(),
    loadAverageAtStart: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

/** The commit measured, and whether the working tree had changes on top of it. */
export function gitState(cwd: string): { commit: string; dirty: boolean } | null {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd, encoding: 'utf8' }).trim() !== '';
    return { commit, dirty };
  } catch {
    return null;
  }
}
