import { readFile, writeFile } from 'node:fs/promises';
import { ApiDocsFiles, buildApiDocs } from '../lib/openapi/build-api-docs';

const pageUrl = new URL(`../${ApiDocsFiles.page}`, import.meta.url);

/**
 * `npm run api-docs` writes docs/api.html from docs/openapi.json; `-- --check` fails when the
 * committed page is not what the generator makes today.
 */
async function main(args: readonly string[]): Promise<void> {
  const text = await buildApiDocs();
  if (args.includes('--check')) {
    const current = await readFile(pageUrl, 'utf8').catch(() => undefined);
    if (current !== text) {
      console.error(`${ApiDocsFiles.page} is stale: run \`npm run api-docs\` and commit the result.`);
      process.exitCode = 1;
      return;
    }
    console.log(`${ApiDocsFiles.page} is up to date.`);
    return;
  }
  await writeFile(pageUrl, text);
  console.log(
    `Wrote ${ApiDocsFiles.page} from ${ApiDocsFiles.document} (${Math.ceil(Buffer.byteLength(text) / 1024)} KiB).`,
  );
}

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--check');
if (unknown.length > 0) {
  // A usage error is one line, no stack trace.
  console.error(`Unknown option(s): ${unknown.join(' ')} (supported: --check)`);
  process.exit(1);
}
main(args).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
