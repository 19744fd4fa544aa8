import { mkdirSync } from 'node:fs';
import path from 'node:path';

/** `artifacts/screenshots/` at the repository's root (the same depth from src/ and dist/). */
const SCREENSHOTS = path.resolve(__dirname, '../../../../artifacts/screenshots');

/**
 * Where the browser tests save a screenshot of each page they visit, made when `VF_SCREENSHOTS=1` asks for them (to
 * look at the pages, or to keep them as a run's artifacts); undefined otherwise. A screenshot checks nothing: what a test asserts of a page it reads
 * from the DOM, and the PNGs (two full pages for each page the dashboard's walk-through visits) cost a CPU-heavy test
 * run seconds it needs no more.
 */
export function screenshotsDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.VF_SCREENSHOTS !== '1') return undefined;
  mkdirSync(SCREENSHOTS, { recursive: true });
  return SCREENSHOTS;
}
