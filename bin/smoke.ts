import { readSettings } from '../functions/settings/setting';
import { ExitCode, runCommand } from '../tools/cli/command-failure';
import { stopOnSignals } from '../tools/cli/stop-on-signals';
import { runStoppable } from '../tools/cli/stop-registry';
import { receiverPlaceFor } from '../tools/smoke/receiver-place';
import { runSmoke } from '../tools/smoke/run-smoke';
import { readSmokeKey } from '../tools/smoke/smoke-key';
import { parseSmokeOptions, smokeUsage } from '../tools/smoke/smoke-options';
import { ReceiverVariables } from '../tools/webhook-receiver/receiver-settings';
import { webhookReceiverDir } from '../tools/webhook-receiver/webhook-receiver-dir';

const signals = stopOnSignals();

/** `npm run smoke -- --base-url <url> --merchant <mer_…>`: a stage's smoke test (docs/deploying.md#smoke-testing-a-stage). */
runCommand(async () => {
  const options = parseSmokeOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(`${smokeUsage}\n`);
    return;
  }
  const key = await readSmokeKey(options.keyFile, process.env);
  // The local receiver serves the certificate of `npm run webhook-receiver`'s CA, kept where it keeps
  // it, so the local runtime trusts it as it trusts that receiver.
  const { RECEIVER_DIR, LOCAL_STATE_DIR } = readSettings(process.env, {
    RECEIVER_DIR: ReceiverVariables.RECEIVER_DIR,
    LOCAL_STATE_DIR: ReceiverVariables.LOCAL_STATE_DIR,
  });
  const plan = {
    baseUrl: options.baseUrl,
    merchantId: options.merchantId,
    key,
    receiver: receiverPlaceFor(options, key.stage, webhookReceiverDir({ RECEIVER_DIR, LOCAL_STATE_DIR })),
    timeoutSeconds: options.timeoutSeconds,
  };
  let stopping = false;
  const print = (line: string) => {
    if (!stopping) process.stdout.write(`${line}\n`);
  };
  const failed = await runStoppable(signals.stopWith, (registerStop) =>
    runSmoke(plan, print, (stop) =>
      registerStop(async () => {
        // Lines from checks cut short would be noise; a smoke stopped early never passes.
        stopping = true;
        await stop();
        process.stderr.write('smoke: stopped before every check ran\n');
        process.exit(ExitCode.failed);
      }),
    ),
  );
  process.exit(failed > 0 ? ExitCode.failed : ExitCode.ok);
});
