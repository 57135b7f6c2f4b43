import { App } from 'aws-cdk-lib';
import { ExitCode, oneLine } from '../lib/cli/command-failure';
import { alarmEmailContextKey, parseAlarmEmails } from '../lib/constructs/alarm-topic';
import { buildApp, parseStage } from '../lib/stack';

const app = new App();
let stage: ReturnType<typeof parseStage>;
try {
  stage = parseStage(app.node.tryGetContext('stage'));
  parseAlarmEmails(app.node.tryGetContext(alarmEmailContextKey));
} catch (error) {
  // A wrong or missing `-c stage=…` or `-c alarmEmail=…` is a usage error: one line, no stack trace, exit 2.
  console.error(`error: ${oneLine((error as Error).message)}`);
  process.exit(ExitCode.usage);
}
buildApp(stage, { app });
