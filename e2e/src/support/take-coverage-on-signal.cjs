// Preloaded (NODE_OPTIONS=--require) into a service process started with NODE_V8_COVERAGE: each SIGUSR2 writes the
// coverage since the last one to that folder and resets V8's counters, so a test reads what one piece of work ran.
const process = require('node:process');
const v8 = require('node:v8');

process.on('SIGUSR2', () => v8.takeCoverage());
