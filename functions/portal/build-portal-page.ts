import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Builds the merchant portal from its sources in `page/` into a document and two assets, each asset
 * named by a short hash of its content (docs/decisions/merchant-portal-page.md). Unlike the pay page,
 * nothing is inline: the document links `assets/portal-<hash>.js` and `assets/portal-<hash>.css`,
 * so the policy allows `'self'` and no hash. The stack's bundling of the portal's two functions, the
 * local runtime and the test run build it before anything loads `portal-page-document.js`.
 */

const pageDir = new URL('./page/', import.meta.url);
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The built module the portal's functions import (git-ignored; its types are in the `.d.ts` beside it). */
export const portalPageModuleUrl = new URL('./portal-page-document.js', import.meta.url);

/** The tags of `page/portal.html` the build points at the hashed assets. */
const StyleTag = '<link rel="stylesheet" href="portal.css">';
const ScriptTag = '<script src="portal.ts" defer></script>';

export interface PortalAsset {
  /** `portal-<hash>.js` or `portal-<hash>.css`. */
  readonly name: string;
  readonly contentType: string;
  readonly body: string;
}

export interface PortalPageDocument {
  readonly html: string;
  readonly assets: readonly PortalAsset[];
}

/** The page's script: its TypeScript bundled and minified for browsers as one classic script. */
async function buildScript(): Promise<string> {
  const result = await build({
    absWorkingDir: projectRoot,
    entryPoints: [fileURLToPath(new URL('portal.ts', pageDir))],
    tsconfig: fileURLToPath(new URL('tsconfig.json', pageDir)),
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    charset: 'utf8',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild wrote no script for the portal page');
  return output.text;
}

function hashedAsset(extension: 'js' | 'css', contentType: string, body: string): PortalAsset {
  const hash = createHash('sha256').update(body, 'utf8').digest('base64url').slice(0, 12);
  return { name: `portal-${hash}.${extension}`, contentType, body };
}

function replaceOnce(html: string, tag: string, replacement: string): string {
  const parts = html.split(tag);
  if (parts.length !== 2) {
    throw new Error(
      `functions/portal/page/portal.html must hold ${tag} exactly once, found ${parts.length - 1}`,
    );
  }
  return parts.join(replacement);
}

export async function buildPortalPage(): Promise<PortalPageDocument> {
  const [template, css, js] = await Promise.all([
    readFile(new URL('portal.html', pageDir), 'utf8'),
    readFile(new URL('portal.css', pageDir), 'utf8'),
    buildScript(),
  ]);
  const script = hashedAsset('js', 'text/javascript; charset=utf-8', js);
  const style = hashedAsset('css', 'text/css; charset=utf-8', css);
  // Relative to the page at `<base>/portal/<id>`, so the stage's base path needs no knowing here.
  const html = replaceOnce(
    replaceOnce(template, StyleTag, `<link rel="stylesheet" href="assets/${style.name}">`),
    ScriptTag,
    `<script src="assets/${script.name}" defer></script>`,
  );
  return { html, assets: [script, style] };
}

/** The built module's text: the document and the assets as literals. */
export function portalPageModuleText(document: PortalPageDocument): string {
  return [
    '// Built by functions/portal/build-portal-page.ts from functions/portal/page/; do not edit.',
    `export const portalPageHtml = ${JSON.stringify(document.html)};`,
    `export const portalAssets = ${JSON.stringify(document.assets)};`,
    '',
  ].join('\n');
}

/**
 * Builds the portal into `portal-page-document.js`, replaced in one rename and only when its text
 * changes, so runtimes and test files building at the same time never read half a file.
 */
export async function writePortalPageModule(): Promise<PortalPageDocument> {
  const document = await buildPortalPage();
  const text = portalPageModuleText(document);
  const current = await readFile(portalPageModuleUrl, 'utf8').catch(() => undefined);
  if (current !== text) {
    const temporary = new URL(`./portal-page-document.${process.pid}.${Date.now()}.tmp`, portalPageModuleUrl);
    await writeFile(temporary, text);
    await rename(temporary, portalPageModuleUrl);
  }
  return document;
}
