import { readFile, writeFile } from 'node:fs/promises';
import { routeList } from '../functions/routes';
import { buildOpenApi, serializeOpenApi } from '../lib/openapi/build-openapi';

const documentPath = 'docs/openapi.json';
const documentUrl = new URL(`../${documentPath}`, import.meta.url);

/** `npm run openapi` writes docs/openapi.json from the route table; `-- --check` fails when it is stale. */
async function main(args: readonly string[]): Promise<void> {
  const text = serializeOpenApi(buildOpenApi(routeList));
  if (args.includes('--check')) {
    const current = await readFile(documentUrl, 'utf8').catch(() => undefined);
    if (current !== text) {
      console.error(`${documentPath} is stale: run \`npm run openapi\` and commit the result.`);
      process.exitCode = 1;
      return;
    }
    console.log(`${documentPath} is up to date.`);
    return;
  }
  await writeFile(documentUrl, text);
  console.log(`Wrote ${documentPath} (${routeList.length} operations).`);
}

const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--check');
if (unknown.length > 0) {
  // A usage error is one line, no stack trace.
  console.error(`Unknown option(s): ${unknown.join(' ')} (supported: --check)`);
  process.exit(1);
}
main(args).catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
