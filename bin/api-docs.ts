import { runCommand } from '../tools/cli/command-failure';
import { checkOnly, writeOrCheckGenerated } from '../tools/cli/generated-file';
import { ApiDocsFiles, buildApiDocs } from '../tools/openapi/build-api-docs';

/**
 * `npm run api-docs` writes docs/api.html from docs/openapi.json; `-- --check` fails when the
 * committed page is not what the generator makes today.
 */
runCommand(async () => {
  const check = checkOnly(process.argv.slice(2));
  const text = await buildApiDocs();
  const size = Math.ceil(Buffer.byteLength(text) / 1024);
  await writeOrCheckGenerated({
    path: ApiDocsFiles.page,
    url: new URL(`../${ApiDocsFiles.page}`, import.meta.url),
    text,
    check,
    regenerate: 'npm run api-docs',
    written: `Wrote ${ApiDocsFiles.page} from ${ApiDocsFiles.document} (${size} KiB).`,
  });
});
