import { randomUUID } from 'node:crypto';
import { stopRegistry } from '../cli/stop-registry';
import { checkAccess } from './access-checks';
import { checkRunner, type PrintLine } from './check-runner';
import { smokeClient } from './smoke-client';
import type { SmokeKey } from './smoke-key';
import type { ReceiverPlace } from './smoke-receiver';
import { checkWebhookRoundTrip } from './webhook-round-trip';

export interface SmokePlan {
  readonly baseUrl: string;
  readonly merchantId: string;
  readonly key: SmokeKey;
  /** Where the sandbox round trip receives its webhook; undefined: no round trip (production). */
  readonly receiver: ReceiverPlace | undefined;
  readonly timeoutSeconds: number;
}

/**
 * Runs every check of the plan, one line each on `print`, and resolves with how many failed. What
 * it starts or registers is handed to `registerStop` too, so a stop removes it.
 */
export async function runSmoke(
  plan: SmokePlan,
  print: PrintLine,
  registerStop: (stop: () => Promise<void>) => void,
): Promise<number> {
  const runner = checkRunner(print);
  const { onStop, stopAll } = stopRegistry();
  registerStop(stopAll);
  const stage = { request: smokeClient(plan.baseUrl), merchantId: plan.merchantId, key: plan.key };
  const canRead = await checkAccess(runner, stage);
  if (plan.receiver === undefined) return runner.failed;
  if (!canRead) {
    runner.fail('webhook round trip', 'not run: the key could not read, so nothing would be registered');
    return runner.failed;
  }
  await checkWebhookRoundTrip(runner, stage, {
    receiver: plan.receiver,
    timeoutSeconds: plan.timeoutSeconds,
    runId: randomUUID(),
    onStop,
  });
  return runner.failed;
}
