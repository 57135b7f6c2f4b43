import { readFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * `docs/openapi.json` as a strict client reads it: one Ajv with the document's components
 * registered, so any schema of the document, `$ref`s included, compiles and validates as a client's
 * validator would.
 */

export const document: any = JSON.parse(
  readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'),
);
const documentId = 'https://merchant-payments.example/openapi.json';

export const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
// OpenAPI's own annotation beside JSON Schema's `examples`.
ajv.addKeyword({ keyword: 'example' });
ajv.addKeyword({ keyword: 'components' });
ajv.addSchema({ $id: documentId, components: document.components });

/** The schema a `#/components/…` reference of the document names, for the request generators. */
export function documentSchemaAt(ref: string): any {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node: any, segment) => node?.[segment], document);
}

const validators = new Map<string, ValidateFunction>();

/** The compiled validator of one schema of the document (compiled once). */
export function validatorOf(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (validate === undefined) {
    validate = ajv.compile(absolute(schema) as object);
    validators.set(key, validate);
  }
  return validate;
}

/** The problems a strict client finds with `body` as the response of `method path` with `status` (none: []). */
export function responseProblems(method: string, path: string, status: number, body: unknown): string[] {
  const schema =
    document.paths[path]?.[method.toLowerCase()]?.responses?.[status]?.content?.['application/json']?.schema;
  if (schema === undefined)
    throw new Error(`docs/openapi.json has no ${status} response for ${method} ${path}`);
  const validate = validatorOf(schema);
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
