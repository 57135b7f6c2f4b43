import { readFile, writeFile } from 'node:fs/promises';
import { routeList } from '../functions/routes';
import { ExitCode, runCommand, UsageError } from '../lib/cli/command-failure';
import { buildOpenApi, serializeOpenApi } from '../lib/openapi/build-openapi';

const documentPath = 'docs/openapi.json';
const documentUrl = new URL(`../${documentPath}`, import.meta.url);

/** `npm run openapi` writes docs/openapi.json from the route table; `-- --check` fails when it is stale. */
runCommand(async () => {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--check');
  if (unknown.length > 0)
    throw new UsageError(`unknown option ${unknown.join(' ')}: the only option is --check`);
  const text = serializeOpenApi(buildOpenApi(routeList));
  if (args.includes('--check')) {
    const current = await readFile(documentUrl, 'utf8').catch(() => undefined);
    if (current !== text) {
      console.error(`error: ${documentPath} is stale: run \`npm run openapi\` and commit the result.`);
      process.exitCode = ExitCode.failed;
      return;
    }
    console.log(`${documentPath} is up to date.`);
    return;
  }
  await writeFile(documentUrl, text);
  console.log(`Wrote ${documentPath} (${routeList.length} operations).`);
});
