import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Builds the hosted pay page from its sources in `page/` into one document with one inline style
 * and one inline script, and the Content-Security-Policy that allows exactly those two by their
 * SHA-256 (docs/decisions/pay-page-built-with-the-stack.md). The stack's bundling of the page's
 * function and the local runtime run it before they load `serve-pay-page.ts`, which serves the
 * built module as it is: nothing is hashed per request or per cold start.
 */

const pageDir = new URL('./page/', import.meta.url);
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The built module `serve-pay-page.ts` imports (git-ignored; its types are in the `.d.ts` beside it). */
export const payPageModuleUrl = new URL('./pay-page-document.js', import.meta.url);

/** The tags of `page/pay-page.html` that the build replaces by the inline style and script. */
const StyleTag = '<link rel="stylesheet" href="pay-page.css">';
const ScriptTag = '<script src="pay-page.ts"></script>';

export interface PayPageDocument {
  readonly html: string;
  readonly contentSecurityPolicy: string;
}

function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The page's script: the TypeScript bundled for browsers as one classic script. */
async function buildScript(): Promise<string> {
  const result = await build({
    // Paths the output names (its source comment) are the project's, wherever the build runs from.
    absWorkingDir: projectRoot,
    entryPoints: [fileURLToPath(new URL('pay-page.ts', pageDir))],
    tsconfig: fileURLToPath(new URL('tsconfig.json', pageDir)),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
    charset: 'utf8',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild wrote no script for the pay page');
  return output.text;
}

function replaceOnce(html: string, tag: string, replacement: string): string {
  const parts = html.split(tag);
  if (parts.length !== 2) {
    throw new Error(
      `functions/pay/page/pay-page.html must hold ${tag} exactly once, found ${parts.length - 1}`,
    );
  }
  return parts.join(replacement);
}

/**
 * The page and its policy: nothing but its own inline script and style (by hash) and fetches to its
 * own origin. `form-action 'none'` also keeps a form the script failed to take over from ever being
 * submitted with card details.
 */
export async function buildPayPage(): Promise<PayPageDocument> {
  const [template, css, js] = await Promise.all([
    readFile(new URL('pay-page.html', pageDir), 'utf8'),
    readFile(new URL('pay-page.css', pageDir), 'utf8'),
    buildScript(),
  ]);
  // What stands between the tags, byte for byte, is what the browser hashes.
  const style = `\n${css}`;
  const script = `\n${js}`;
  const html = replaceOnce(
    replaceOnce(template, StyleTag, `<style>${style}</style>`),
    ScriptTag,
    `<script>${script}</script>`,
  );
  const contentSecurityPolicy = [
    "default-src 'none'",
    `script-src ${sha256Source(script)}`,
    `style-src ${sha256Source(style)}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, contentSecurityPolicy };
}

/** The built module's text: the two strings as literals. */
export function payPageModuleText(document: PayPageDocument): string {
  return [
    '// Built by functions/pay/build-pay-page.ts from functions/pay/page/; do not edit.',
    `export const payPageHtml = ${JSON.stringify(document.html)};`,
    `export const payPageContentSecurityPolicy = ${JSON.stringify(document.contentSecurityPolicy)};`,
    '',
  ].join('\n');
}

/**
 * Builds the page into `pay-page-document.js`. The file is replaced in one rename and only when its
 * text changes, so runtimes and test files building at the same time never read half a file.
 */
export async function writePayPageModule(): Promise<PayPageDocument> {
  const document = await buildPayPage();
  const text = payPageModuleText(document);
  const current = await readFile(payPageModuleUrl, 'utf8').catch(() => undefined);
  if (current !== text) {
    const temporary = new URL(`./pay-page-document.${process.pid}.${Date.now()}.tmp`, payPageModuleUrl);
    await writeFile(temporary, text);
    await rename(temporary, payPageModuleUrl);
  }
  return document;
}
