import { z } from 'zod';
import { Stage } from '../functions/config';
import { IdPrefix, isTypeId } from '../functions/domain/ids';
import pipeline from '../stages/pipeline';
import { accountId, httpsUrl, issueLine, region, type StageConfig, StageConfigError } from './stage-config';

/** The committed release pipeline file, as errors and docs name it. */
export const pipelineFile = 'stages/pipeline.ts';

const smoke = z.strictObject({
  /** The merchant the stage's smoke test runs as (`docs/operations.md#smoke-testing-a-stage`). */
  merchantId: z
    .string()
    .refine((id) => isTypeId(id, IdPrefix.merchant), { error: 'must be a merchant id, like mer_01h…' }),
  /** The Secrets Manager secret, in the pipeline's account, whose value is that merchant's key. */
  keySecret: z.string().regex(/^[A-Za-z0-9/_+=.@-]{1,512}$/, {
    error: 'must be a Secrets Manager secret name, like merchant-payments/sandbox/smoke-api-key',
  }),
});

/**
 * Where the release pipeline gets the code and runs, checked whole before anything is built; the
 * stages it deploys come from their own files (`stages/<stage>.ts`).
 */
export const releasePipelineSchema = z.strictObject({
  /** The account and region the pipeline itself lives in, often a tools account of its own. */
  env: z.strictObject({ account: accountId, region }),
  /** A CodeConnections connection to the repository host, made once in the console. */
  connectionArn: z
    .string()
    .regex(
      /^arn:aws[a-z-]*:(?:codeconnections|codestar-connections):[a-z0-9-]+:\d{12}:connection\/[A-Za-z0-9-]+$/,
      {
        error:
          'must be a CodeConnections connection ARN, like arn:aws:codeconnections:eu-west-1:111111111111:connection/…',
      },
    ),
  /** `owner/name` of the repository the connection reaches. */
  repository: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, { error: 'must be owner/name' }),
  branch: z.string().regex(/^[^\s~^:?*[\\]+$/, { error: 'must be a branch name' }),
  smoke: z.strictObject({ [Stage.sandbox]: smoke, [Stage.production]: smoke }),
  /**
   * The public https URL reaching the sandbox smoke's receiver, port 8080 of the build: a tunnel
   * the build opens, since a build has no inbound address.
   */
  sandboxReceiverUrl: httpsUrl,
});

/** What `stages/pipeline.ts` exports. */
export type ReleasePipelineFile = z.input<typeof releasePipelineSchema>;
/** A checked release pipeline configuration. */
export type ReleasePipelineSettings = z.output<typeof releasePipelineSchema>;

/** Checks what a pipeline file exports; every problem on one line naming `file` and the field. */
export function parseReleasePipelineConfig(exported: unknown, file: string): ReleasePipelineSettings {
  const result = releasePipelineSchema.safeParse(exported, { reportInput: true });
  if (!result.success) {
    const problems = result.error.issues.map((issue) => issueLine(issue, 'the pipeline file'));
    throw new StageConfigError(`${file}: ${problems.join('; ')}`);
  }
  return result.data;
}

/** The checked configuration of the committed `stages/pipeline.ts`. */
export function committedReleasePipelineConfig(): ReleasePipelineSettings {
  return parseReleasePipelineConfig(pipeline, pipelineFile);
}

/** A stage the pipeline deploys must say where: the pipeline cannot deploy "wherever it runs". */
export function pinnedForPipeline(stage: Stage, config: StageConfig, file: string): StageConfig {
  if (config.env?.account === undefined || config.env.region === undefined) {
    throw new StageConfigError(
      `${file}: env.account and env.region are required for the release pipeline to deploy ${stage}`,
    );
  }
  return config;
}
