import { App } from 'aws-cdk-lib';
import { buildApp, parseStage } from '../lib/stack';

const app = new App();
let stage: ReturnType<typeof parseStage>;
try {
  stage = parseStage(app.node.tryGetContext('stage'));
} catch (error) {
  // A wrong or missing `-c stage=…` is a usage error: one line, no stack trace.
  console.error((error as Error).message);
  process.exit(1);
}
buildApp(stage, { app });
