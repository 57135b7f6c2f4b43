import { App } from 'aws-cdk-lib';
import { readAppContext } from '../lib/app-context';
import { ExitCode, oneLine } from '../tools/cli/command-failure';

const app = new App();

let context: Awaited<ReturnType<typeof readAppContext>>;
try {
  context = await readAppContext(app);
} catch (error) {
  // A wrong `-c stage=…`, a retired flag or a stage file that fails its checks is a usage error:
  // one line, no stack trace, exit 2.
  console.error(`error: ${oneLine((error as Error).message)}`);
  process.exit(ExitCode.usage);
}
// Loaded only now: the whole stack takes seconds to import, and a refusal should not wait for it.
const { buildApp } = await import('../lib/stack');
buildApp(context.stage, { app, config: context.config });
