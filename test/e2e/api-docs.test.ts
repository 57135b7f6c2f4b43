import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { routeList } from '../../functions/routes';
import { LocalDocumentPaths } from '../../lib/local/runtime';
import { ApiDocsFiles } from '../../lib/openapi/build-api-docs';
import type { OpenApiDocument } from '../../lib/openapi/build-openapi';
import { e2eFile, t } from '../support/e2e-test';

e2eFile();

const repoFile = (path: string) => readFile(new URL(`../../${path}`, import.meta.url));
const get = (path: string, init: RequestInit = {}) => fetch(`${t.runtime.baseUrl}${path}`, init);

describe('the API reference served by the local runtime', () => {
  it.each([
    { file: ApiDocsFiles.page, path: LocalDocumentPaths.apiReference, type: 'text/html; charset=utf-8' },
    { file: ApiDocsFiles.document, path: LocalDocumentPaths.openApi, type: 'application/json' },
  ])('serves $file at GET $path as $type, without an API key', async ({ file, path, type }) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(await repoFile(file))).toBe(true);
  });

  it('answers HEAD /docs with the page’s length and no body', async () => {
    const response = await get(LocalDocumentPaths.apiReference, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe((await repoFile(ApiDocsFiles.page)).length);
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
