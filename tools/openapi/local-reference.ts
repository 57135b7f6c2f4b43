import { buildApiDocs, committedDocument } from './build-api-docs';
import { type OpenApiDocument, serializeOpenApi } from './build-openapi';

/**
 * The document with the local runtime at `baseUrl` first among its servers, so the reference's
 * server list and the tools reading the document name where a request to this runtime goes. The
 * deployed stages follow, as `npm run openapi` lists them.
 */
export function withLocalServer(document: OpenApiDocument, baseUrl: string): OpenApiDocument {
  const local = { url: baseUrl, description: 'Local runtime (npm start) on this machine.' };
  return { ...document, servers: [local, ...document.servers] };
}

/** What a local runtime serves for its base URL: the OpenAPI document and the API reference page. */
export interface LocalReference {
  /** docs/openapi.json with the runtime's own server first, written as `npm run openapi` writes it. */
  document(baseUrl: string): Promise<string>;
  /** The API reference rendered from that document, as `npm run api-docs` renders docs/api.html. */
  page(baseUrl: string): Promise<string>;
}

/** Where the local reference comes from: the committed document, and the renderer of docs/api.html. */
export interface LocalReferenceSources {
  readonly readDocument: () => Promise<OpenApiDocument>;
  readonly renderPage: (document: OpenApiDocument) => Promise<string>;
}

const committedSources: LocalReferenceSources = { readDocument: committedDocument, renderPage: buildApiDocs };

/**
 * Each is made on its first request and kept (rendering the page takes about a second), so a
 * runtime that never serves the reference spends nothing on it and one that does renders it once.
 */
export function localReference(sources: LocalReferenceSources = committedSources): LocalReference {
  const document = madeOncePerUrl(async (baseUrl) => withLocalServer(await sources.readDocument(), baseUrl));
  return {
    document: madeOncePerUrl(async (baseUrl) => serializeOpenApi(await document(baseUrl))),
    page: madeOncePerUrl(async (baseUrl) => sources.renderPage(await document(baseUrl))),
  };
}

function madeOncePerUrl<T>(make: (baseUrl: string) => Promise<T>): (baseUrl: string) => Promise<T> {
  const made = new Map<string, Promise<T>>();
  return (baseUrl) => {
    let result = made.get(baseUrl);
    if (result === undefined) {
      // A failure is not kept: the next request tries again.
      result = make(baseUrl).catch((error: unknown) => {
        made.delete(baseUrl);
        throw error;
      });
      made.set(baseUrl, result);
    }
    return result;
  };
}
