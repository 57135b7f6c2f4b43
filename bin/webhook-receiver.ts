import { relative } from 'node:path';
import { runCommand, UsageError } from '../tools/cli/command-failure';
import { stopOnSignals } from '../tools/cli/stop-on-signals';
import { readReceiverSettings } from '../tools/webhook-receiver/receiver-settings';
import { startWebhookReceiver } from '../tools/webhook-receiver/webhook-receiver';
import { webhookReceiverDir } from '../tools/webhook-receiver/webhook-receiver-dir';

/** A path as a shell word: relative to here when inside it, quoted when it needs to be. */
function shellPath(path: string): string {
  const fromHere = relative(process.cwd(), path);
  const shown = fromHere.startsWith('..') ? path : fromHere;
  return /^[\w./-]+$/.test(shown) ? shown : `'${shown.replaceAll("'", `'\\''`)}'`;
}

/** `npm run webhook-receiver`: a local HTTPS endpoint that verifies and records webhook deliveries. */
runCommand(async () => {
  const stopHandlers = stopOnSignals();
  const args = process.argv.slice(2);
  if (args.length > 0)
    throw new UsageError(
      `unknown option ${args.join(' ')}: it takes none (settings come from RECEIVER_PORT, RECEIVER_HOST, RECEIVER_DIR, LOCAL_STATE_DIR)`,
    );
  const settings = readReceiverSettings(process.env);
  const dir = webhookReceiverDir(settings);
  const receiver = await startWebhookReceiver({
    host: settings.RECEIVER_HOST,
    port: settings.RECEIVER_PORT,
    dir,
  });
  console.log(`Webhook receiver listening on ${receiver.url} (register ${receiver.url}/webhooks)`);
  console.log(`Signing secrets are read from ${shellPath(`${receiver.dir}/secrets`)}, one per line.`);
  // npm start reads the CA from its state folder at every attempt (docs/decisions/local-webhooks-without-a-restart.md).
  if (dir === webhookReceiverDir({ LOCAL_STATE_DIR: settings.LOCAL_STATE_DIR })) {
    console.log('npm start trusts its certificate, whether it is running already or starts later.');
  } else if (receiver.caCertPath !== null) {
    console.log('Outside the runtime state folder: start the runtime trusting it, in another terminal:');
    console.log(`  NODE_EXTRA_CA_CERTS=${shellPath(receiver.caCertPath)} npm start`);
  }
  stopHandlers.stopWith(() => receiver.close());
});
