import { readFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { webcrypto } from 'node:crypto';
import vm from 'node:vm';

/**
 * What Deno, Bun, browsers and edge workers all give a script: the web platform's globals, and no `process`,
 * `Buffer`, `require` nor Node built-in module.
 */
function webGlobals(): Record<string, unknown> {
  return {
    fetch,
    Request,
    Response,
    Headers,
    FormData,
    Blob,
    URL,
    URLSearchParams,
    AbortController,
    AbortSignal,
    ReadableStream,
    TextEncoder,
    TextDecoder,
    crypto: webcrypto,
    atob,
    btoa,
    setTimeout,
    clearTimeout,
    queueMicrotask,
    structuredClone,
    console,
  };
}

/**
 * Loads a CommonJS build and everything it requires into a context with only the web platform's globals: a Node
 * built-in required on the way, or a Node global used while loading or running, fails as it would in those runtimes.
 */
export function loadInWebRuntime(file: string): Record<string, unknown> {
  const context = vm.createContext(webGlobals());
  const loaded = new Map<string, { exports: unknown }>();
  const load = (filename: string): unknown => {
    const cached = loaded.get(filename);
    if (cached) return cached.exports;
    const module = { exports: {} as unknown };
    loaded.set(filename, module);
    const wrapper = vm.runInContext(
      `(function (exports, require, module, __filename, __dirname) {${readFileSync(filename, 'utf8')}\n})`,
      context,
      { filename },
    ) as (...args: unknown[]) => void;
    const resolve = createRequire(filename).resolve;
    const requireIn = (specifier: string) => {
      if (isBuiltin(specifier)) throw new Error(`${path.basename(filename)} requires the Node built-in ${specifier}`);
      const target = resolve(specifier);
      return target.endsWith('.json') ? (JSON.parse(readFileSync(target, 'utf8')) as unknown) : load(target);
    };
    wrapper(module.exports, requireIn, module, filename, path.dirname(filename));
    return module.exports;
  };
  return load(file) as Record<string, unknown>;
}
