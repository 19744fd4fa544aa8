/** The Chromium the browser tests drive: `CHROMIUM_PATH` when set, else Debian's `/usr/bin/chromium`. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHROMIUM_PATH || '/usr/bin/chromium';
}
