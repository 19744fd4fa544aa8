import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type request from 'supertest';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
export interface ApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * Holds real answers of the API against the OpenAPI document: the status must be listed for the operation,
 * the media type documented for it, and a JSON body valid against its schema (JSON Schema 2020-12).
 * Returns what is wrong, or undefined.
 */
export function createResponseChecker(doc: ApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc as object, 'openapi');

  return (operation: string, res: Pick<request.Response, 'status' | 'headers' | 'text'>): string | undefined => {
    const [method, path] = operation.split(' ');
    const response = doc.paths[path]?.[method]?.responses[String(res.status)];
    if (!response) return `${operation} answered ${res.status}, which the document does not list`;
    const contentType = String(res.headers['content-type'] ?? '').split(';')[0];
    const media = response.content ? Object.keys(response.content) : [];
    if (media.length === 0)
      return contentType === '' || res.text === '' ? undefined : `${operation} ${res.status} has a body the document does not describe`;
    if (!media.includes(contentType)) return `${operation} ${res.status} answered ${contentType}, documented ${media.join(', ')}`;
    if (!contentType.endsWith('json')) return undefined;
    const validate = ajv.getSchema(
      `openapi#/${pointer('paths', path, method, 'responses', String(res.status), 'content', contentType, 'schema')}`,
    )!;
    return validate(JSON.parse(res.text))
      ? undefined
      : `${operation} ${res.status}: ${ajv.errorsText(validate.errors)} in ${res.text.slice(0, 300)}`;
  };
}
