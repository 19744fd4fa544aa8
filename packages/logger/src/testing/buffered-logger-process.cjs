// A process logging through a buffered logger (buffered-logger.e2e.test.ts): `lines N`, then `exit` (process.exit),
// `crash` (an uncaught exception) or `stay` (alive until killed). It loads the compiled @vf/logger, as services do.
const process = require('node:process');
const { setImmediate, setInterval } = require('node:timers');
const { createLogger, routeProcessOutput } = require('@vf/logger');

const [count, end] = process.argv.slice(2);
const logger = createLogger({ service: 'buffered-test', buffered: true });
routeProcessOutput(logger);
for (let i = 0; i < Number(count); i++) logger.info({ i, padding: 'x'.repeat(i % 300) }, 'line');
if (end === 'exit') process.exit(0);
if (end === 'crash')
  setImmediate(() => {
    throw new Error('on purpose');
  });
if (end === 'stay') setInterval(() => undefined, 1000);
