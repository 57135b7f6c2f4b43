import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { routeList } from '../../functions/routes';
import { LocalDocumentPaths } from '../../tools/local/runtime';
import { ApiDocsFiles, buildApiDocs } from '../../tools/openapi/build-api-docs';
import { type OpenApiDocument, serializeOpenApi } from '../../tools/openapi/build-openapi';
import { e2eFile, t } from '../support/e2e-test';

e2eFile();

const repoFile = (path: string) => readFile(new URL(`../../${path}`, import.meta.url));
const get = (path: string, init: RequestInit = {}) => fetch(`${t.runtime.baseUrl}${path}`, init);

/** docs/openapi.json as the runtime at `baseUrl` should serve it: itself listed first among the servers. */
async function expectedDocument(baseUrl: string): Promise<OpenApiDocument> {
  const committed = JSON.parse((await repoFile(ApiDocsFiles.document)).toString('utf8')) as OpenApiDocument;
  const local = { url: baseUrl, description: 'Local runtime (npm start) on this machine.' };
  return { ...committed, servers: [local, ...committed.servers] };
}

describe('the API reference served by the local runtime', () => {
  it.each([
    { path: LocalDocumentPaths.apiReference, type: 'text/html; charset=utf-8' },
    { path: LocalDocumentPaths.openApi, type: 'application/json' },
  ])('serves GET $path as $type, without an API key', async ({ path, type }) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
  });

  it('serves docs/openapi.json with its own base URL first among the servers, as npm run openapi writes it', async () => {
    const served = await (await get(LocalDocumentPaths.openApi)).text();
    expect(served).toBe(serializeOpenApi(await expectedDocument(t.runtime.baseUrl)));
  });

  it('serves the reference rendered from that document, which shows its base URL first', {
    timeout: 60_000,
  }, async () => {
    const [served, document] = await Promise.all([
      get(LocalDocumentPaths.apiReference).then((response) => response.text()),
      expectedDocument(t.runtime.baseUrl),
    ]);
    // The server list is in the page's markup too, before the first deployed stage's.
    const local = served.indexOf(`>${t.runtime.baseUrl}<`);
    expect(local).toBeGreaterThan(-1);
    expect(local).toBeLessThan(
      served.indexOf('>https://{apiId}.execute-api.{region}.amazonaws.com/{stage}<'),
    );
    expect(
      served === (await buildApiDocs(document)),
      'the served page is not build-docs of the served document',
    ).toBe(true);
    expect(await get(LocalDocumentPaths.apiReference).then((response) => response.text())).toBe(served);
  });

  it('answers HEAD /docs with the page’s length and no body', async () => {
    const page = Buffer.from(await (await get(LocalDocumentPaths.apiReference)).arrayBuffer());
    const response = await get(LocalDocumentPaths.apiReference, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe(page.length);
    expect(await response.text()).toBe('');
  });

  it('answers any other method on /docs as an unknown route: 404 not_found', async () => {
    const response = await get(LocalDocumentPaths.apiReference, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('is no API route: neither the route table nor the OpenAPI document has /docs', async () => {
    const document = JSON.parse((await repoFile(ApiDocsFiles.document)).toString('utf8')) as OpenApiDocument;
    const isDocs = (path: string) => path === '/docs' || path.startsWith('/docs/');
    expect(routeList.filter((route) => isDocs(route.path))).toEqual([]);
    expect(Object.keys(document.paths).filter(isDocs)).toEqual([]);
  });
});
