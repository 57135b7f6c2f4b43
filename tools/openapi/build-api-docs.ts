import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { OpenApiDocument } from './build-openapi';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const redoclyCli = join(repoRoot, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

/** The API reference page and what it is made from, relative to the repository root. */
export const ApiDocsFiles = {
  page: 'docs/api.html',
  document: 'docs/openapi.json',
  template: 'tools/openapi/api-docs.hbs',
  config: 'redocly.yaml',
} as const;

/** Keeps the CLI off the network: no usage telemetry, no update or announcement check. */
const offlineEnvironment = {
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
  NO_COLOR: '1',
} as const;

/**
 * Renders an OpenAPI document (docs/openapi.json unless given) into one self-contained HTML page
 * with Redocly's `build-docs`: Redoc's script is inlined rather than loaded from its CDN, and the
 * template adds a content security policy that refuses every request. The page depends only on the
 * document, the template and the installed @redocly/cli (no date, no random id), so it can be
 * checked for staleness byte for byte.
 */
export async function buildApiDocs(document?: OpenApiDocument): Promise<string> {
  const workDir = await mkdtemp(join(tmpdir(), 'merchant-payments-api-docs-'));
  const input = join(workDir, 'openapi.json');
  const output = join(workDir, 'api.html');
  const args = [
    redoclyCli,
    'build-docs',
    input,
    '--inlineBundle',
    `--template=${ApiDocsFiles.template}`,
    `--config=${ApiDocsFiles.config}`,
    `--output=${output}`,
  ];
  try {
    await writeFile(input, JSON.stringify(pageDocument(document ?? (await committedDocument()))));
    await promisify(execFile)(process.execPath, args, {
      cwd: repoRoot,
      env: { ...process.env, ...offlineEnvironment },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stderr?: string; message: string }) => {
      throw new Error(`redocly build-docs failed: ${lastLine(error.stderr) ?? error.message}`);
    });
    return withoutOutsideImages(await readFile(output, 'utf8'));
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** docs/openapi.json as committed. */
export async function committedDocument(): Promise<OpenApiDocument> {
  return JSON.parse(await readFile(join(repoRoot, ApiDocsFiles.document), 'utf8')) as OpenApiDocument;
}

/** What the page is rendered from: the document with its version as a labelled line under the title. */
export type PageDocument = Omit<OpenApiDocument, 'info'> & {
  readonly info: { readonly title: string; readonly summary: string; readonly description: string };
};

/**
 * Redoc titles the page `<title> (<version>)` whenever `info.version` is set, and a bare
 * `(1448-03-01)` reads like a date in the name (docs/decisions/documentation.md#decision). The page
 * is rendered from a copy whose `info` carries the version as its summary, the line Redoc shows under
 * the title, instead; the OpenAPI document itself keeps `info.version`.
 */
export function pageDocument(document: OpenApiDocument): PageDocument {
  const { title, version, description } = document.info;
  return { ...document, info: { title, summary: `API version ${version}`, description } };
}

/**
 * Redoc's credit in the sidebar shows its logo from Redocly's CDN. The template hides the credit,
 * but the image still loads, and the page's policy refusing it is an error in the console. Each such
 * URL becomes an empty inline image, which the policy allows. A URL that is no longer in the page
 * (a Redoc update) fails the build, so a new one is looked at rather than left to the policy.
 */
export const outsideImages = [
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg',
  'https://cdn.redoc.ly/redoc/logo-mini.svg',
] as const;
/** What the build puts in place of each of those URLs. */
export const emptyImage = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";

function withoutOutsideImages(page: string): string {
  let result = page;
  for (const url of outsideImages) {
    if (!result.includes(url)) throw new Error(`redocly build-docs: the page no longer holds ${url}`);
    result = result.replaceAll(url, emptyImage);
  }
  return result;
}

/** The CLI ends its output with the reason it failed; the rest is banners and progress. */
function lastLine(text: string | undefined): string | undefined {
  return text
    ?.split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .at(-1);
}
