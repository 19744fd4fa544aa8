import type { Logger } from 'pino';

type Level = 'warn' | 'error';

/** Logs one error through `logger`, or counts it when the same error was logged within the window. */
export type RepeatLimitedLog = (level: Level, fields: { err: unknown } & Record<string, unknown>, msg: string) => void;

const MAX_KEPT = 100;

const keyOf = (msg: string, err: unknown) => {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return `${msg}\u0000${String(code)}\u0000${String(message)}`;
};

/**
 * A dependency that is away fails every reconnection of every connection to it, several times a second (each
 * BullMQ queue and worker repeats its connection's error too): one line per distinct error and window says as much,
 * and the next line after a window tells how many were left out (`repeated`).
 */
export function logRepeatsSparingly(logger: Logger, windowMs = 30_000): RepeatLimitedLog {
  const seen = new Map<string, { at: number; repeated: number }>();
  return (level, fields, msg) => {
    const key = keyOf(msg, fields.err);
    const now = Date.now();
    const last = seen.get(key);
    if (last && now - last.at < windowMs) {
      last.repeated++;
      return;
    }
    if (seen.size >= MAX_KEPT) for (const [k, v] of seen) if (now - v.at >= windowMs) seen.delete(k);
    seen.set(key, { at: now, repeated: 0 });
    logger[level](last?.repeated ? { ...fields, repeated: last.repeated } : fields, msg);
  };
}
