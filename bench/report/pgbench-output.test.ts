import { parsePgbenchSummary, pgbenchLatenciesMs, pgbenchVersion } from './pgbench-output';

const finished = `pgbench (15.20 (Debian 15.20-0+deb12u1))
transaction type: /tmp/append.sql
scaling factor: 1
query mode: prepared
number of clients: 64
number of threads: 2
maximum number of tries: 1
duration: 5 s
number of transactions actually processed: 6150
number of failed transactions: 2 (0.033%)
latency average = 51.9 ms
initial connection time = 40.1 ms
tps = 1229.412877 (without initial connection time)
`;

describe('pgbench output', () => {
  it('reads the committed and failed transactions and the rate without connection time', () => {
    expect(parsePgbenchSummary(finished)).toEqual({ transactions: 6150, failed: 2, tps: 1229.412877, aborted: false });
  });

  it('tells an aborted run, and one that printed no rate', () => {
    const aborted = `number of transactions actually processed: 0\npgbench: error: Run was aborted; the above results are incomplete.\n`;
    expect(parsePgbenchSummary(aborted)).toEqual({ transactions: 0, failed: 0, tps: null, aborted: true });
  });

  it('takes each logged transaction time in microseconds as a latency in ms, leaving out failed ones', () => {
    const log = ['0 1 8957 0 1795659355 937605', '1 1 failed 0 1795659355 938167', '1 2 1434 0 1795659355 939056', ''].join('\n');
    expect(pgbenchLatenciesMs(log)).toEqual([8.957, 1.434]);
  });

  it('reads the version', () => {
    expect(pgbenchVersion('pgbench (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)\n')).toBe('15.20 (Debian 15.20-0+deb12u1)');
    expect(pgbenchVersion('something else')).toBeNull();
  });
});
