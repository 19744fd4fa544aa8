import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_DIR } from './schema-files';

let texts: Map<number, string> | undefined;

/** The official text of an AEAT error code (errores.properties), or undefined for an unknown code. */
export function aeatErrorText(code: number): string | undefined {
  if (!texts) {
    texts = new Map();
    const file = readFileSync(join(SCHEMA_DIR, 'errores.properties.utf8.txt'), 'utf8');
    for (const line of file.split(/\r?\n/)) {
      const match = /^\s*(\d{4,5})\s*=\s*(.*?)\s*$/.exec(line);
      if (match) texts.set(Number(match[1]), match[2]);
    }
  }
  return texts.get(code);
}
