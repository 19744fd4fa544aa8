import { prettyFactory } from 'pino-pretty';

/** How `npm start` prints its own and its services' log lines. */
export type OutputFormat = 'pretty' | 'json';

/**
 * LOG_FORMAT when set (`pretty` or `json`); otherwise pretty for a person at a terminal and JSON lines for anything
 * else (a file, a pipe, a log collector), unchanged from what the services write.
 */
export function outputFormat(env: NodeJS.ProcessEnv, stdout: { isTTY?: boolean }): OutputFormat {
  if (env.LOG_FORMAT === 'pretty' || env.LOG_FORMAT === 'json') return env.LOG_FORMAT;
  if (env.LOG_FORMAT) throw new Error(`LOG_FORMAT must be pretty or json, not ${JSON.stringify(env.LOG_FORMAT)}`);
  return stdout.isTTY ? 'pretty' : 'json';
}

/** pino-pretty's settings for every line `npm start` shows a person: time, level, service, message, fields. */
export const PRETTY_OPTIONS = {
  colorize: true,
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,service',
  messageFormat: '{service}: {msg}',
  singleLine: false,
};

/**
 * Turns one line a service wrote into what `npm start` prints. The services always write JSON (formatting them
 * here, in `npm start`'s own process, costs the services nothing); a line that is not JSON (none should be) is
 * wrapped in a JSON object naming its service, so that every printed line parses.
 */
export function serviceLineFormatter(format: OutputFormat, colorize = true): (role: string, line: string) => string {
  const pretty = format === 'pretty' ? prettyFactory({ ...PRETTY_OPTIONS, colorize }) : undefined;
  return (role, line) => {
    const json = line.startsWith('{') ? line : JSON.stringify({ level: 30, time: Date.now(), service: role, msg: line });
    if (!pretty) return json + '\n';
    try {
      return pretty(json);
    } catch {
      return json + '\n';
    }
  };
}
