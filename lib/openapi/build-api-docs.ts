import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const redoclyCli = join(repoRoot, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

/** The API reference page and what it is made from, relative to the repository root. */
export const ApiDocsFiles = {
  page: 'docs/api.html',
  document: 'docs/openapi.json',
  template: 'lib/openapi/api-docs.hbs',
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
 * Renders docs/openapi.json into one self-contained HTML page with Redocly's `build-docs`: Redoc's
 * script is inlined rather than loaded from its CDN, and the template adds a content security
 * policy that refuses every request. The page depends only on the document, the template and the
 * installed @redocly/cli (no date, no random id), so it can be checked for staleness byte for byte.
 */
export async function buildApiDocs(): Promise<string> {
  const workDir = await mkdtemp(join(tmpdir(), 'merchant-payments-api-docs-'));
  const output = join(workDir, 'api.html');
  const args = [
    redoclyCli,
    'build-docs',
    ApiDocsFiles.document,
    '--inlineBundle',
    `--template=${ApiDocsFiles.template}`,
    `--config=${ApiDocsFiles.config}`,
    `--output=${output}`,
  ];
  try {
    await promisify(execFile)(process.execPath, args, {
      cwd: repoRoot,
      env: { ...process.env, ...offlineEnvironment },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stderr?: string; message: string }) => {
      throw new Error(`redocly build-docs failed: ${lastLine(error.stderr) ?? error.message}`);
    });
    return await readFile(output, 'utf8');
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** The CLI ends its output with the reason it failed; the rest is banners and progress. */
function lastLine(text: string | undefined): string | undefined {
  return text
    ?.split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .at(-1);
}
