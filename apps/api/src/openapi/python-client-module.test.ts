import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  checkGenerated,
  GENERATED_MODULE,
  pythonClientSource,
  type OpenApiDocument,
} from '../../../../clients/python/generator/python-client-source';
import { apiDocument } from '../create-app';

// The Python client (clients/python) has its schemas and operations written by our generator from the document this
// API serves (docs/decisions/0039-python-client-own-generator.md). This test fails when the module is out of date;
// `npm run client:generate` rewrites it.
const GENERATED = path.resolve(__dirname, '../../../..', GENERATED_MODULE);

test("the Python client's module is generated from the document the service serves", async () => {
  const expected = pythonClientSource((await apiDocument()) as unknown as OpenApiDocument);
  if (process.env.UPDATE_GENERATED === '1') writeFileSync(GENERATED, expected);
  checkGenerated(readFileSync(GENERATED, 'utf8'), expected);
});
