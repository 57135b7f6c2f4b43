import { describe, expect, it } from 'vitest';
import { routeList } from '../../../functions/routes';
import { buildOpenApi, type OpenApiDocument, serializeOpenApi } from '../../../tools/openapi/build-openapi';
import { localReference, withLocalServer } from '../../../tools/openapi/local-reference';

const baseUrl = 'http://127.0.0.1:3000';
const built = buildOpenApi(routeList);

/** Sources that count their calls; the page names the first server it was rendered from. */
function countingSources(options: { failFirstRender?: boolean } = {}) {
  const calls = { reads: 0, renders: 0 };
  return {
    calls,
    sources: {
      readDocument: async () => {
        calls.reads += 1;
        return built;
      },
      renderPage: async (document: OpenApiDocument) => {
        calls.renders += 1;
        if (options.failFirstRender && calls.renders === 1) throw new Error('redocly build-docs failed');
        return `<p>${document.servers[0]?.url}</p>`;
      },
    },
  };
}

describe('withLocalServer', () => {
  it('lists the local runtime first, then the deployed stages as the document lists them', () => {
    const served = withLocalServer(built, baseUrl);
    expect(served.servers).toEqual([
      { url: baseUrl, description: 'Local runtime (npm start) on this machine.' },
      ...built.servers,
    ]);
    expect({ ...served, servers: built.servers }).toEqual(built);
  });
});

describe('localReference', () => {
  it('serves the document with its own server first, written as npm run openapi writes it', async () => {
    const { sources } = countingSources();
    const text = await localReference(sources).document(baseUrl);
    expect(text).toBe(serializeOpenApi(withLocalServer(built, baseUrl)));
  });

  it('renders the page from that document once, however many requests ask for it', async () => {
    const { calls, sources } = countingSources();
    const reference = localReference(sources);
    const pages = await Promise.all([
      reference.page(baseUrl),
      reference.page(baseUrl),
      reference.document(baseUrl),
    ]);
    expect(await reference.page(baseUrl)).toBe(`<p>${baseUrl}</p>`);
    expect(pages.slice(0, 2)).toEqual([`<p>${baseUrl}</p>`, `<p>${baseUrl}</p>`]);
    expect(calls).toEqual({ reads: 1, renders: 1 });
  });

  it('tries a failed render again on the next request rather than failing every later one', async () => {
    const { calls, sources } = countingSources({ failFirstRender: true });
    const reference = localReference(sources);
    await expect(reference.page(baseUrl)).rejects.toThrow('redocly build-docs failed');
    expect(await reference.page(baseUrl)).toBe(`<p>${baseUrl}</p>`);
    expect(calls).toEqual({ reads: 1, renders: 2 });
  });
});
