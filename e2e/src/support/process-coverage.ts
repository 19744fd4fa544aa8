import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pollWhileRunning, REPOSITORY_ROOT, type ServiceProcess } from '@vf/private-servers';

interface V8Coverage {
  result: { url: string; functions: { ranges: { count: number }[] }[] }[];
}

/**
 * The source files whose code a service process ran between two takes: V8's own coverage (NODE_V8_COVERAGE), written
 * on a signal by a preloaded handler. The processes run the compiled build; a file of `dist/` stands for its source in
 * `src/` (tsc keeps the layout).
 */
export class ProcessCoverage {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'vf-coverage-'));

  /** The environment that turns coverage on in a process started with it. */
  env(): Record<string, string> {
    const preload = path.join(__dirname, 'take-coverage-on-signal.cjs');
    return { NODE_V8_COVERAGE: this.dir, NODE_OPTIONS: `--require ${preload}` };
  }

  /** The repository's source files (relative paths) that ran since the last take, or since the process started. */
  async take(service: ServiceProcess): Promise<Set<string>> {
    const before = this.reports().length;
    service.child.kill('SIGUSR2');
    const report = await pollWhileRunning(
      service,
      async () => {
        const reports = this.reports();
        return reports.length > before && readReport(path.join(this.dir, reports[reports.length - 1]));
      },
      'a coverage report',
      60_000,
      50,
    );
    const files = new Set<string>();
    for (const script of report.result) {
      if (!script.url.startsWith('file://') || !script.functions.some((f) => f.ranges[0].count > 0)) continue;
      const file = path.relative(REPOSITORY_ROOT, fileURLToPath(script.url)).split(path.sep).join('/');
      const source = /^((?:apps|packages)\/[^/]+)\/dist\/(.+)\.js$/.exec(file);
      if (source) files.add(`${source[1]}/src/${source[2]}.ts`);
    }
    return files;
  }

  /** Report files in the order they were written (V8 names them `coverage-<pid>-<time>-<seq>.json`). */
  private reports(): string[] {
    const seq = (name: string) => name.split(/[-.]/).slice(1, 4).map(Number);
    return readdirSync(this.dir)
      .filter((f) => f.startsWith('coverage-') && f.endsWith('.json'))
      .sort((a, b) => {
        const [x, y] = [seq(a), seq(b)];
        return x[1] - y[1] || x[2] - y[2];
      });
  }
}

/** The report, once V8 has finished writing it. */
function readReport(file: string): V8Coverage | false {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as V8Coverage;
  } catch {
    return false;
  }
}
