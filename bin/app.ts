import { App } from 'aws-cdk-lib';
import type { Stage } from '../functions/config';
import { ExitCode, oneLine } from '../lib/cli/command-failure';
import {
  committedStageConfig,
  committedStageFile,
  parseStage,
  readStageConfigFile,
  type StageConfig,
  stageFileContextKey,
} from '../lib/stage-config';

const app = new App();

/** The stage and its checked file (`stages/<stage>.ts`, or `-c stageFile=…`). */
async function readContext(): Promise<{ stage: Stage; config: StageConfig }> {
  const stage = parseStage(app.node.tryGetContext('stage'));
  const stageFile: unknown = app.node.tryGetContext(stageFileContextKey);
  if (stageFile !== undefined && (typeof stageFile !== 'string' || stageFile === '')) {
    throw new Error(
      `Context "${stageFileContextKey}" must be the path of a stage file, like stages/sandbox.ts`,
    );
  }
  // Subscribers once came from this flag, and a deploy without it dropped them; the file keeps them.
  if (app.node.tryGetContext('alarmEmail') !== undefined) {
    throw new Error(
      `Context "alarmEmail" is no longer read: alarm subscribers are alarmSubscribers.email in ${stageFile ?? committedStageFile(stage)}`,
    );
  }
  if (stageFile === undefined) return { stage, config: committedStageConfig(stage) };
  return { stage, config: await readStageConfigFile(stage, stageFile) };
}

let context: Awaited<ReturnType<typeof readContext>>;
try {
  context = await readContext();
} catch (error) {
  // A wrong `-c stage=…`, a retired flag or a stage file that fails its checks is a usage error:
  // one line, no stack trace, exit 2.
  console.error(`error: ${oneLine((error as Error).message)}`);
  process.exit(ExitCode.usage);
}
// Loaded only now: the whole stack takes seconds to import, and a refusal should not wait for it.
const { buildApp } = await import('../lib/stack');
buildApp(context.stage, { app, config: context.config });
