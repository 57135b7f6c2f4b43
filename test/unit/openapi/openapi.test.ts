import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { isMutating, isPublic, type RouteDefinition } from '../../../functions/route-definition';
import { routeList } from '../../../functions/routes';
import { integer } from '../../../functions/validation/integer';
import { documented } from '../../../functions/validation/schema-meta';
import { text } from '../../../functions/validation/text';
import { buildOpenApi, type OpenApiDocument, serializeOpenApi } from '../../../tools/openapi/build-openapi';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const documentPath = 'docs/openapi.json';

async function committedText(): Promise<string> {
  return readFile(new URL(documentPath, `file://${repoRoot}`), 'utf8');
}

async function committedDocument(): Promise<OpenApiDocument> {
  return JSON.parse(await committedText()) as OpenApiDocument;
}

function operationOf(document: OpenApiDocument, route: RouteDefinition) {
  return document.paths[route.path]?.[route.method.toLowerCase() as Lowercase<RouteDefinition['method']>];
}

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number };
  readonly problems: readonly {
    readonly ruleId: string;
    readonly severity: string;
    readonly message: string;
  }[];
}

/** Runs the project's Redocly CLI on the committed document, offline: built-in rules, no telemetry. */
async function redoclyLint(): Promise<LintReport> {
  const cli = fileURLToPath(new URL('node_modules/@redocly/cli/bin/cli.js', `file://${repoRoot}`));
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const args = [cli, 'lint', documentPath, '--config=redocly.yaml', '--format=json'];
  // A lint error exits 1; the JSON report on stdout is what the assertion reads either way.
  const stdout = await promisify(execFile)(process.execPath, args, { cwd: repoRoot, env }).then(
    (result) => result.stdout,
    (error: { stdout?: string }) => error.stdout ?? '',
  );
  return JSON.parse(stdout) as LintReport;
}

describe('docs/openapi.json', () => {
  it('is the document the route table builds today', async () => {
    const stale = `${documentPath} is stale: run \`npm run openapi\``;
    const fresh = buildOpenApi(routeList);
    const committed = await committedText();
    // The parsed comparison gives a readable diff; the text comparison also catches formatting.
    expect(JSON.parse(committed), stale).toEqual(fresh);
    expect(committed, stale).toBe(serializeOpenApi(fresh));
  });

  it('bounds every array a request may send, so no body makes a route check more items than its maximum', () => {
    const document = buildOpenApi(routeList);
    const unbounded: string[] = [];
    const seen = new Set<unknown>();
    const visit = (schema: unknown, where: string): void => {
      if (schema === null || typeof schema !== 'object' || seen.has(schema)) return;
      seen.add(schema);
      const node = schema as Record<string, unknown>;
      const ref = node.$ref;
      if (typeof ref === 'string') {
        const name = ref.slice(ref.lastIndexOf('/') + 1);
        visit((document.components.schemas as Record<string, unknown>)[name], `${where} → ${name}`);
      }
      if (node.type === 'array' && typeof node.maxItems !== 'number') unbounded.push(where);
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' || key === 'example' || key === 'examples') continue;
        if (!Array.isArray(value)) visit(value, `${where}/${key}`);
        else for (const [index, item] of value.entries()) visit(item, `${where}/${key}/${index}`);
      }
    };
    for (const route of routeList) {
      const content = operationOf(document, route)?.requestBody?.content as
        | Record<string, { schema: unknown }>
        | undefined;
      for (const [type, { schema }] of Object.entries(content ?? {}))
        visit(schema, `${route.operationId} ${type}`);
    }
    expect(unbounded).toEqual([]);
  });

  it('documents every route of the table as one operation with its operationId', async () => {
    const document = await committedDocument();
    for (const route of routeList) {
      expect(operationOf(document, route)?.operationId, `${route.method} ${route.path}`).toBe(
        route.operationId,
      );
    }
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(routeList.length);
  });

  it('passes redocly lint without errors', { timeout: 60_000 }, async () => {
    const report = await redoclyLint();
    const errors = report.problems.filter((problem) => problem.severity === 'error');
    expect(errors, JSON.stringify(errors, null, 2)).toEqual([]);
    expect(report.totals.errors).toBe(0);
    // Warnings are tolerated, but more than a few means a rule needs a decision in redocly.yaml.
    expect(report.totals.warnings).toBeLessThanOrEqual(5);
  });
});

describe('buildOpenApi', () => {
  const document = buildOpenApi(routeList);

  it('requires an Idempotency-Key header on every mutating operation and on no GET', () => {
    for (const route of routeList) {
      const refs = (operationOf(document, route)?.parameters ?? []).filter(
        (parameter) => '$ref' in parameter && parameter.$ref === '#/components/parameters/IdempotencyKey',
      );
      expect(refs, `${route.method} ${route.path}`).toHaveLength(isMutating(route) ? 1 : 0);
    }
    expect(document.components.parameters.IdempotencyKey).toMatchObject({
      in: 'header',
      required: true,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  });

  it('documents the Idempotent-Replayed header on the success response of every mutating operation', () => {
    for (const route of routeList) {
      const success = operationOf(document, route)?.responses[route.successStatus];
      expect(success?.headers?.['Idempotent-Replayed'] !== undefined, `${route.method} ${route.path}`).toBe(
        isMutating(route),
      );
    }
  });

  it('answers errors with the shared Error schema, 409, 410, 413, 415 and 422 only where they can occur', () => {
    for (const route of routeList) {
      const responses = operationOf(document, route)?.responses ?? {};
      const isPage = route.contentType !== undefined;
      const expected = isPage ? ['429', '500'] : ['400', '404', '429', '500'];
      if (isPage && route.answersNotFound) expected.push('404');
      if (!isPublic(route)) expected.push('401', '403');
      if (isMutating(route)) expected.push('409', '422');
      if (route.callsProcessor) expected.push('503');
      // A portal link is refused as no link (401) or as spent, expired or revoked (410).
      if (route.opensPortalLink) expected.push('401', '410');
      if (route.request.body !== undefined) expected.push('413', '415');
      const errorStatuses = Object.keys(responses).filter((status) => Number(status) >= 400);
      expect(errorStatuses.sort(), `${route.method} ${route.path}`).toEqual(expected.sort());
      for (const status of errorStatuses) {
        expect(responses[status]?.content['application/json']?.schema).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
    }
    expect(document.components.schemas.Error).toMatchObject({ type: 'object', required: ['error'] });
  });

  it('turns schemas annotated with an id into components referenced by $ref', () => {
    expect(document.paths['/catalog/products/{productId}']?.get?.responses['200']?.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/CatalogProduct' } },
    });
    expect(document.components.schemas.CatalogProduct).toMatchObject({
      type: 'object',
      properties: { productId: { type: 'string', example: expect.stringMatching(/^prod_/) } },
    });
  });

  it('documents a coerced query parameter with its request type, bounds and default', () => {
    const limit = document.paths['/catalog/products']?.get?.parameters?.find(
      (parameter) => 'name' in parameter && parameter.name === 'limit',
    );
    expect(limit).toEqual({
      name: 'limit',
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    });
  });

  it('embeds no $schema or $id keyword', () => {
    expect(serializeOpenApi(document)).not.toMatch(/"\$(schema|id)"/);
  });

  it('names the request form of a component <id>Input when it reads differently from the response form', () => {
    const Widget = documented(z.strictObject({ size: z._default(integer(), 1) }), { id: 'TestWidget' });
    const Box = documented(z.strictObject({ widget: Widget }), { id: 'TestBox' });
    const Label = documented(z.strictObject({ text: text() }), { id: 'TestLabel' });
    const route: RouteDefinition = {
      operationId: 'packBox',
      method: 'POST',
      path: '/boxes',
      summary: 'Pack a box',
      tag: 'Boxes',
      handler: 'api/boxes/pack-box',
      merchantScope: 'body',
      request: { body: z.strictObject({ box: Box, label: Label }) },
      successStatus: 201,
      response: z.strictObject({ box: Box, label: Label }),
    };
    const { components, paths } = buildOpenApi([route], []);
    expect(Object.keys(components.schemas)).toEqual([
      'Error',
      'TestBox',
      'TestBoxInput',
      'TestLabel',
      'TestWidget',
      'TestWidgetInput',
    ]);
    expect(components.schemas.TestWidget?.required).toEqual(['size']);
    expect(components.schemas.TestWidgetInput?.required).toBeUndefined();
    expect(components.schemas.TestBoxInput?.properties).toEqual({
      widget: { $ref: '#/components/schemas/TestWidgetInput' },
    });
    expect(paths['/boxes']?.post?.requestBody?.content['application/json'].schema.properties).toEqual({
      box: { $ref: '#/components/schemas/TestBoxInput' },
      label: { $ref: '#/components/schemas/TestLabel' },
    });
  });
});
