import { readFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Checks a response against the schema `docs/openapi.json` gives the operation's status, as a
 * client's strict validator would: a field the route returns and the document forbids fails.
 */

const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
const documentId = 'https://merchant-payments.example/openapi.json';

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
ajv.addKeyword({ keyword: 'example' });
ajv.addKeyword({ keyword: 'components' });
ajv.addSchema({ $id: documentId, components: document.components });

const validators = new Map<string, ValidateFunction>();

/** The problems ajv finds with `body` as the response of `method path` with `status` (none: []). */
export function responseProblems(method: string, path: string, status: number, body: unknown): string[] {
  const key = `${method} ${path} ${status}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    const schema =
      document.paths[path]?.[method.toLowerCase()]?.responses?.[status]?.content?.['application/json']
        ?.schema;
    if (schema === undefined) throw new Error(`docs/openapi.json has no ${status} response for ${key}`);
    validate = ajv.compile(absolute(schema) as object);
    validators.set(key, validate);
  }
  return validate(body)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

/** A document schema with its local `$ref`s pointing into the document registered above. */
function absolute(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(absolute);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) =>
      key === '$ref' && typeof value === 'string' ? [key, documentId + value] : [key, absolute(value)],
    ),
  );
}
