import IORedis from 'ioredis';
import { Client } from 'pg';

/**
 * Every statement a pg client sends and every command an ioredis connection sends, from here on, in the order they are
 * issued (`pg:` and `redis:` before the statement's name or text, the command's name). `stop` ends the count.
 */
export function countCalls() {
  const issued: string[] = [];
  const original = Client.prototype.query;
  const query = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
    const first = args[0] as string | { name?: string; text?: string };
    issued.push(`pg:${typeof first === 'string' ? first : (first.name ?? first.text ?? '?')}`);
    return (original as (...a: unknown[]) => unknown).apply(this, args) as never;
  });
  const originalSend = IORedis.prototype.sendCommand;
  const send = jest.spyOn(IORedis.prototype, 'sendCommand').mockImplementation(function (this: IORedis, ...args) {
    issued.push(`redis:${(args[0] as { name: string }).name}`);
    return originalSend.apply(this, args);
  });
  const of = (kind: 'pg' | 'redis') => issued.filter((i) => i.startsWith(`${kind}:`)).map((i) => i.slice(kind.length + 1));
  const stop = () => {
    query.mockRestore();
    send.mockRestore();
  };
  return { issued, statements: () => of('pg'), commands: () => of('redis'), stop };
}
