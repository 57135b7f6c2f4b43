import type { App } from 'aws-cdk-lib';
import type { Stage } from '../functions/config';
import {
  committedStageConfig,
  committedStageFile,
  parseStage,
  readStageConfigFile,
  type StageConfig,
  stageFileContextKey,
} from './stage-config';

/**
 * The stage and its checked file (`stages/<stage>.ts`, or `-c stageFile=…`) from the CDK app's
 * context. Throws, with a message saying what is wrong and what is accepted, on a wrong stage, a
 * retired flag or a stage file that fails its checks: `bin/app.ts` prints it as a usage error.
 */
export async function readAppContext(app: App): Promise<{ stage: Stage; config: StageConfig }> {
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
