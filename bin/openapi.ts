import { routeList } from '../functions/routes';
import { runCommand } from '../tools/cli/command-failure';
import { checkOnly, writeOrCheckGenerated } from '../tools/cli/generated-file';
import { buildOpenApi, serializeOpenApi } from '../tools/openapi/build-openapi';
import { webhookDefinitions } from '../tools/openapi/webhooks';

const documentPath = 'docs/openapi.json';

/**
 * `npm run openapi` writes docs/openapi.json from the route table and the webhooks; `-- --check` fails
 * when it is stale.
 */
runCommand(async () => {
  const check = checkOnly(process.argv.slice(2));
  await writeOrCheckGenerated({
    path: documentPath,
    url: new URL(`../${documentPath}`, import.meta.url),
    text: serializeOpenApi(buildOpenApi(routeList)),
    check,
    regenerate: 'npm run openapi',
    written: `Wrote ${documentPath} (${routeList.length} operations, ${webhookDefinitions.length} webhooks).`,
  });
});
