import { runAdmin } from '../tools/admin/cli';

/**
 * `npm run -s admin -- <command> [options]`: the operator's CLI (docs/decisions/admin-cli.md); `--help`
 * lists the commands.
 */
process.exitCode = await runAdmin(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
});
