// Jest's module runtime, compiling each module with V8's code cache of the same module in this worker process.
// Jest gives every test file a fresh module registry, so each file that loads the API compiled its thousand-odd
// modules again, and that compile was most of a test file's start-up. V8 checks a cache against the source it is
// given and rejects it if they differ, so a module that changed is simply compiled afresh.
const vm = require('node:vm');

const compileFunction = vm.compileFunction;
/** @type {Map<string, { code: string, data: Buffer }>} */
const codeCache = new Map();

vm.compileFunction = function compileWithCodeCache(code, params, options = {}) {
  const cached = options.filename === undefined ? undefined : codeCache.get(options.filename);
  if (cached !== undefined && cached.code === code) {
    const fn = compileFunction(code, params, { ...options, cachedData: cached.data });
    if (!fn.cachedDataRejected) return fn;
  }
  const fn = compileFunction(code, params, { ...options, produceCachedData: true });
  if (options.filename !== undefined && fn.cachedDataProduced) codeCache.set(options.filename, { code, data: fn.cachedData });
  return fn;
};

module.exports = require('jest-runtime');
