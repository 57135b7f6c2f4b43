import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString, type OpenAPI3, type SchemaObject } from 'openapi-typescript';
import ts from 'typescript';

/**
 * Writes src/generated/openapi.ts from the API's description (docs/openapi.json), the one source of
 * the client's types; `-- --check` fails when the file is stale instead (client/README.md#types).
 * A string whose pattern is a TypeID of known prefixes becomes `Id<'prefix'>`, so that an id of one
 * kind cannot be passed where another is expected.
 */
const documentUrl = new URL('../../docs/openapi.json', import.meta.url);
const typesUrl = new URL('../src/generated/openapi.ts', import.meta.url);
const routesUrl = new URL('../src/generated/routes.ts', import.meta.url);

/** `^inv_[0-7]…$` or `^(?:inv|pmt|po)_[0-7]…$`: the prefixes of a TypeID pattern. */
const typeIdPattern = /^\^(?:\(\?:)?([a-z|]+)\)?_\[0-7\]\[0-9a-hjkmnp-tv-z\]\{25\}\$$/;

const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;

function readDocument(): OpenAPI3 {
  return JSON.parse(readFileSync(documentUrl, 'utf8')) as OpenAPI3;
}

/** The generated files, by URL: the types, and the table of every operation's method and path. */
export async function generatedFiles(): Promise<Array<{ url: URL; name: string; text: string }>> {
  const document = readDocument();
  return [
    { url: typesUrl, name: 'client/src/generated/openapi.ts', text: await generatedTypes(document) },
    { url: routesUrl, name: 'client/src/generated/routes.ts', text: generatedRoutes(document) },
  ];
}

async function generatedTypes(document: OpenAPI3): Promise<string> {
  const ast = await openapiTS(document, { transform: brandIds, alphabetize: false });
  return [
    '// Generated from docs/openapi.json by `npm run generate -w client`; do not edit by hand.',
    "import type { Id } from '../ids.js';",
    '',
    astToString(ast),
  ].join('\n');
}

function brandIds(schema: SchemaObject): ts.TypeNode | undefined {
  const { type, pattern } = schema as { type?: unknown; pattern?: unknown };
  if (type !== 'string' || typeof pattern !== 'string') return undefined;
  const prefixes = typeIdPattern.exec(pattern)?.[1]?.split('|');
  if (prefixes === undefined) return undefined;
  const kinds = prefixes.map((prefix) =>
    ts.factory.createLiteralTypeNode(ts.factory.createStringLiteral(prefix)),
  );
  return ts.factory.createTypeReferenceNode('Id', [
    kinds.length === 1 ? (kinds[0] as ts.TypeNode) : ts.factory.createUnionTypeNode(kinds),
  ]);
}

/**
 * Each operation's method, path, where its `merchantId` goes (the query, the path or the body; the
 * client fills it in), whether it takes a JSON body and whether it takes an Idempotency-Key.
 */
function generatedRoutes(document: OpenAPI3): string {
  const lines: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {}))
    for (const method of methods) {
      const operation = (item as Record<string, OperationShape | undefined>)[method];
      if (operation?.operationId === undefined) continue;
      const body = operation.requestBody?.content?.['application/json']?.schema;
      const inParameters = operation.parameters?.find((parameter) => parameter.name === 'merchantId')?.in;
      const merchantId = inParameters ?? (body?.properties?.merchantId ? 'body' : null);
      const idempotent =
        operation.parameters?.some((parameter) => parameter.$ref?.endsWith('/IdempotencyKey')) === true;
      const route = { method: method.toUpperCase(), path, merchantId, body: body !== undefined, idempotent };
      lines.push(`  ${operation.operationId}: ${JSON.stringify(route)},`);
    }
  return [
    '// Generated from docs/openapi.json by `npm run generate -w client`; do not edit by hand.',
    'export const routes = {',
    ...lines,
    '} as const;',
    '',
    'export type OperationId = keyof typeof routes;',
    '',
  ].join('\n');
}

interface OperationShape {
  operationId?: string;
  parameters?: Array<{ name?: string; in?: string; $ref?: string }>;
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  for (const { url, name, text } of await generatedFiles()) {
    if (!check) {
      writeFileSync(url, text);
      console.log(`Wrote ${name}`);
    } else if (readFileSync(url, 'utf8') !== text) {
      console.error(`${name} is stale: run npm run generate -w client`);
      process.exit(1);
    }
  }
}
