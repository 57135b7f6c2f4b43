import { App } from 'aws-cdk-lib';
import {
  committedReleasePipelineConfig,
  pinnedForPipeline,
  type ReleasePipelineSettings,
} from '../lib/release-pipeline-config';
import { committedStageConfig, committedStageFile, type StageConfig } from '../lib/stage-config';
import { ExitCode, oneLine } from '../tools/cli/command-failure';

/**
 * The release pipeline's app (`docs/operations.md#the-release-pipeline`): deployed once with
 * `npx cdk deploy --app "npx tsx bin/pipeline.ts"`, then it updates itself from every commit.
 */
let settings: ReleasePipelineSettings;
let stages: { sandbox: StageConfig; production: StageConfig };
try {
  settings = committedReleasePipelineConfig();
  stages = {
    sandbox: pinnedForPipeline('sandbox', committedStageConfig('sandbox'), committedStageFile('sandbox')),
    production: pinnedForPipeline(
      'production',
      committedStageConfig('production'),
      committedStageFile('production'),
    ),
  };
} catch (error) {
  // A pipeline or stage file that fails its checks: one line, no stack trace, exit 2.
  console.error(`error: ${oneLine((error as Error).message)}`);
  process.exit(ExitCode.usage);
}
// Loaded only now: the stacks take seconds to import, and a refusal should not wait for them.
const { buildReleasePipelineApp } = await import('../lib/release-pipeline');
buildReleasePipelineApp({ settings, stages }, { app: new App() });
