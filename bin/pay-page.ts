import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { payPageModuleUrl, writePayPageModule } from '../functions/pay/build-pay-page';
import { runCommand, UsageError } from '../tools/cli/command-failure';

/**
 * `npm run pay-page` builds the hosted pay page from functions/pay/page/ into the module its
 * function serves. The stack runs it before bundling that function; the local runtime and the test
 * run build the same module themselves.
 */
runCommand(async () => {
  const args = process.argv.slice(2);
  if (args.length > 0) throw new UsageError(`pay-page takes no arguments, got: ${args.join(' ')}`);
  const { html } = await writePayPageModule();
  const path = relative(process.cwd(), fileURLToPath(payPageModuleUrl));
  process.stdout.write(`Built the pay page into ${path} (${Buffer.byteLength(html)} bytes).\n`);
});
