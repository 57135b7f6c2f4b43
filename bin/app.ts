import { App } from 'aws-cdk-lib';
import { exitCodeOf, failureLine, UsageError } from '../lib/cli/command-failure';
import { buildApp, parseStage } from '../lib/stack';

const app = new App();
let stage: ReturnType<typeof parseStage>;
try {
  stage = parseStage(app.node.tryGetContext('stage'));
} catch (error) {
  // A wrong or missing `-c stage=…` is a usage error: one line, no stack trace.
  const usage = new UsageError((error as Error).message);
  console.error(`error: ${failureLine(usage)}`);
  process.exit(exitCodeOf(usage));
}
buildApp(stage, { app });
