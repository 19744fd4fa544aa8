// Preloaded into the bench's API (`node --require`): counts the statements the process sends to PostgreSQL (each a
// round trip: pg's Client#query) and the commands it sends to Redis (ioredis's sendCommand, pipelined ones included),
// so that the report can say how many a registration costs. On SIGUSR2 the counts so far are written, as JSON, to
// the file named by VF_BENCH_CALL_COUNTS. Bench only: the services never load it.
const { writeFileSync } = require('node:fs');
const path = require('node:path');
const process = require('node:process');

const from = { paths: [path.join(__dirname, '../../apps/api')] };
const counts = { postgres: 0, redis: 0 };

function counted(proto, method, key) {
  const original = proto[method];
  proto[method] = function (...args) {
    counts[key] += 1;
    return original.apply(this, args);
  };
}

counted(require(require.resolve('pg', from)).Client.prototype, 'query', 'postgres');
counted(require(require.resolve('ioredis', from)).prototype, 'sendCommand', 'redis');

process.on('SIGUSR2', () => writeFileSync(process.env.VF_BENCH_CALL_COUNTS, JSON.stringify(counts)));
