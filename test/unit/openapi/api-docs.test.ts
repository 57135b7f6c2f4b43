import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ApiDocsFiles, buildApiDocs, pageDocument } from '../../../tools/openapi/build-api-docs';
import { buildOpenApi } from '../../../tools/openapi/build-openapi';

const committedPage = () => readFile(new URL(`../../../${ApiDocsFiles.page}`, import.meta.url), 'utf8');

/**
 * Ways markup, CSS or a module script fetches from another host while a page loads. An `<a href>`
 * is a link the reader may follow, not a load, so it is not one of them.
 */
const outsideLoadPatterns = [
  /<(?:script|img|iframe|frame|source|track|embed|object|audio|video|link|input)\b[^>]*?\s(?:src|href|data|poster|srcset)\s*=\s*["']?\s*(?:https?:)?\/\/[^\s"'>]*/gi,
  /url\(\s*["']?\s*(?:https?:)?\/\/[^\s"')]*/gi,
  /@import\s+(?:url\()?\s*["']?\s*(?:https?:)?\/\/[^\s"')]*/gi,
  /\bimport\s*(?:\(\s*|[\w\s{},*$]*?\bfrom\s*)["'`](?:https?:)?\/\/[^\s"'`]*/g,
];

function outsideLoads(html: string): string[] {
  return outsideLoadPatterns.flatMap((pattern) => Array.from(html.matchAll(pattern), ([load]) => load));
}

/** Sources a directive may list without letting the page reach any host. */
const hostlessSources = new Set(["'none'", "'unsafe-inline'", 'data:']);

/**
 * What keeps the page's content security policy from refusing every request: it must come before
 * any script or style, default to 'none', and list no host, scheme-wide or wildcard source.
 */
function policyProblems(html: string): string[] {
  const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>/i.exec(html);
  if (meta === null) return ['no Content-Security-Policy meta element'];
  const problems: string[] = [];
  const firstResource = html.search(/<(?:script|style|link)\b/i);
  if (firstResource !== -1 && firstResource < meta.index)
    problems.push('the policy comes after a script or style');
  const directives = (meta[1] ?? '')
    .split(';')
    .map((directive) => directive.trim().split(/\s+/))
    .filter(([name]) => name !== undefined && name !== '');
  const defaultSrc = directives.find(([name]) => name === 'default-src');
  if (defaultSrc?.slice(1).join(' ') !== "'none'") problems.push("default-src is not 'none'");
  for (const [name, ...sources] of directives) {
    for (const source of sources) {
      if (!hostlessSources.has(source)) problems.push(`${name} allows ${source}`);
    }
  }
  return problems;
}

describe('docs/api.html', () => {
  it('is the page build-docs makes from docs/openapi.json today', { timeout: 60_000 }, async () => {
    const [committed, fresh] = await Promise.all([committedPage(), buildApiDocs()]);
    // A boolean, not toBe: a diff of two 2.6 MB single-line scripts helps nobody.
    expect(committed === fresh, `${ApiDocsFiles.page} is stale: run \`npm run api-docs\``).toBe(true);
  });

  it('loads nothing from another host: Redoc’s script is inline, no CDN, no web fonts', async () => {
    expect(outsideLoads(await committedPage())).toEqual([]);
  });

  it('carries a content security policy, ahead of every script and style, that allows no host', async () => {
    expect(policyProblems(await committedPage())).toEqual([]);
  });

  it('shows the title and every tag of docs/openapi.json without running a script', async () => {
    const page = await committedPage();
    const document = JSON.parse(
      await readFile(new URL(`../../../${ApiDocsFiles.document}`, import.meta.url), 'utf8'),
    ) as { info: { title: string }; tags: { name: string }[] };
    expect(page).toContain(`<title>${document.info.title}</title>`);
    for (const { name } of document.tags) expect(page).toContain(`data-text="${name}"`);
  });

  it('heads the page with the title alone and labels the version on a line of its own', async () => {
    const page = await committedPage();
    const headings = Array.from(page.matchAll(/<h1\b[^>]*>(.*?)<\/h1>/g), ([, text]) => text);
    expect(headings).toEqual(['Merchant Payments API']);
    expect(page).toContain('<p>API version 1448-03-01</p>');
  });
});

describe('pageDocument', () => {
  it('moves info.version into a summary that says it is the API version, and keeps the rest', () => {
    const document = buildOpenApi([]);
    const { info, ...rest } = pageDocument(document);
    expect(info).toEqual({
      title: 'Merchant Payments API',
      summary: 'API version 1448-03-01',
      description: document.info.description,
    });
    expect({ ...rest, info: document.info }).toEqual(document);
  });
});

describe('outsideLoads', () => {
  it('finds what Redoc’s CDN build loads: a module preload and a module import', () => {
    const cdn = 'https://cdn.redocly.com/redoc/v3.0.1/bundles/redoc.standalone.js';
    const html = `<head><link rel="modulepreload" href="${cdn}" crossorigin="anonymous" /></head>
      <script type="module">import { hydrate } from "${cdn}";</script>`;
    expect(outsideLoads(html)).toHaveLength(2);
  });

  it.each([
    ['a stylesheet import', '<style>@import url("https://fonts.googleapis.com/css?family=Inter");</style>'],
    ['a web font', '<style>@font-face { src: url(//fonts.gstatic.com/s/inter.woff2) }</style>'],
    ['a stylesheet link', '<link rel="stylesheet" href="https://cdn.example.com/theme.css">'],
    ['an image', '<img alt="logo" src="https://cdn.redoc.ly/redoc/logo-mini.svg">'],
    ['a protocol-relative script', '<script src="//unpkg.com/redoc"></script>'],
  ])('finds %s of another host', (_what, html) => {
    expect(outsideLoads(html)).not.toEqual([]);
  });

  it('leaves links, inline data and same-document references alone', () => {
    const html = `<a href="https://example.com/webhooks">a link</a><img src="data:image/png;base64,AA==">
      <svg><path fill="url(#gradient)"/></svg><script>const sample = "https://hooks.example.com/payments";</script>`;
    expect(outsideLoads(html)).toEqual([]);
  });
});

describe('policyProblems', () => {
  const page = (policy: string) =>
    `<head><meta http-equiv="Content-Security-Policy" content="${policy}"><style></style></head>`;

  it('accepts a policy that defaults to none and allows inline code and data only', () => {
    expect(policyProblems(page("default-src 'none'; script-src 'unsafe-inline'; img-src data:"))).toEqual([]);
  });

  it('refuses a policy that lets the page reach a host', () => {
    expect(policyProblems(page("default-src 'none'; img-src data: https://cdn.redoc.ly"))).toEqual([
      'img-src allows https://cdn.redoc.ly',
    ]);
    expect(policyProblems(page("default-src 'self'; connect-src *"))).toEqual([
      "default-src is not 'none'",
      "default-src allows 'self'",
      'connect-src allows *',
    ]);
  });

  it('refuses a page without a policy, or with one placed after a script', () => {
    expect(policyProblems('<head><script></script></head>')).toEqual([
      'no Content-Security-Policy meta element',
    ]);
    const late = `<head><script></script><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head>`;
    expect(policyProblems(late)).toEqual(['the policy comes after a script or style']);
  });
});
