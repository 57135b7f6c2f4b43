import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { portalPageModuleUrl, writePortalPageModule } from '../functions/portal/build-portal-page';
import { runCommand, UsageError } from '../tools/cli/command-failure';

/**
 * `npm run portal-page` builds the merchant portal from functions/portal/page/ into the module its
 * two functions serve. The stack runs it before bundling either; the local runtime and the test run
 * build the same module themselves.
 */
runCommand(async () => {
  const args = process.argv.slice(2);
  if (args.length > 0) throw new UsageError(`portal-page takes no arguments, got: ${args.join(' ')}`);
  const { html, assets } = await writePortalPageModule();
  const path = relative(process.cwd(), fileURLToPath(portalPageModuleUrl));
  const sizes = [
    `page ${Buffer.byteLength(html)} bytes`,
    ...assets.map((a) => `${a.name} ${Buffer.byteLength(a.body)} bytes`),
  ];
  process.stdout.write(`Built the merchant portal into ${path} (${sizes.join(', ')}).\n`);
});
