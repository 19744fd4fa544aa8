import { operationMethod, type Operation } from './python-operations.ts';
import { PythonTypes } from './python-types.ts';

/** The repository's path of the generated module, and what to run when it is out of date. */
export const GENERATED_MODULE = 'clients/python/verifactu_client/_generated.py';
export const REGENERATE = 'npm run client:generate';

export interface OpenApiDocument {
  info?: { title?: string; version?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

const HEADER = `# Generated from the service's OpenAPI document (GET /api/v1/openapi.json) by clients/python/generator.
# Do not edit: run \`${REGENERATE}\` in the repository.
"""The operations and schemas of the VERI*FACTU registration API, as TypedDicts and one method per operation."""

from __future__ import annotations

import abc
from typing import Any, Literal, NotRequired, TypedDict`;

const BASE_CLASS = `class Operations(abc.ABC):
    """One method per operation of the document, named after its operationId; VerifactuClient makes the calls."""

    @abc.abstractmethod
    def _call(
        self,
        method: str,
        path: str,
        *,
        path_params: dict[str, str] | None = None,
        query: dict[str, Any] | None = None,
        body: Any = None,
        headers: dict[str, str | None] | None = None,
        expect: Literal["json", "text", "bytes", "none"] = "json",
        unwrap: str | None = None,
    ) -> Any:
        """Sends one request (with retries) and returns its answer read as \`expect\` says, or raises its problem."""`;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The Python module generated from an OpenAPI 3.1 document: deterministic, so that a difference means a change. */
export function pythonClientSource(document: OpenApiDocument): string {
  const types = new PythonTypes();
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) types.typeOf(schema, name);
  const methods: string[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = operations[method];
      if (operation) methods.push(operationMethod(method, path, operation, types));
    }
  }
  const exported = [...types.declared(), 'Operations'].map((name) => `    ${JSON.stringify(name)},`);
  return `${HEADER}\n\n__all__ = [\n${exported.join('\n')}\n]\n\n\n${types.source()}\n\n\n${BASE_CLASS}\n\n${methods.join('\n\n')}\n`;
}

/** Throws, saying what to run, when the committed module is not what the document generates. */
export function checkGenerated(current: string, expected: string): void {
  if (current === expected) return;
  const currentLines = current.split('\n');
  const expectedLines = expected.split('\n');
  const line = expectedLines.findIndex((text, i) => currentLines[i] !== text);
  const at = line === -1 ? currentLines.length : line;
  throw new Error(
    `${GENERATED_MODULE} differs from the served OpenAPI document (first at line ${at + 1}: ` +
      `expected ${JSON.stringify(expectedLines[at] ?? '')}, found ${JSON.stringify(currentLines[at] ?? '')}): ` +
      `run \`${REGENERATE}\` and commit the result.`,
  );
}
