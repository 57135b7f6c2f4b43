import { relative, resolve } from 'node:path';
import { runCommand, UsageError } from '../lib/cli/command-failure';
import { stopOnSignals } from '../lib/cli/stop-on-signals';
import { readReceiverSettings } from '../lib/webhook-receiver/receiver-settings';
import { defaultWebhookReceiverDir, startWebhookReceiver } from '../lib/webhook-receiver/webhook-receiver';

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
      `unknown option ${args.join(' ')}: it takes none (settings come from RECEIVER_PORT, RECEIVER_HOST, RECEIVER_DIR)`,
    );
  const settings = readReceiverSettings(process.env);
  const receiver = await startWebhookReceiver({
    host: settings.RECEIVER_HOST,
    port: settings.RECEIVER_PORT,
    dir: resolve(settings.RECEIVER_DIR ?? defaultWebhookReceiverDir),
  });
  console.log(`Webhook receiver listening on ${receiver.url} (register ${receiver.url}/webhooks)`);
  console.log(`Signing secrets are read from ${shellPath(`${receiver.dir}/secrets`)}, one per line.`);
  console.log('Start the runtime trusting it, in another terminal:');
  const trust = receiver.caCertPath === null ? '' : `NODE_EXTRA_CA_CERTS=${shellPath(receiver.caCertPath)} `;
  console.log(`  ${trust}WEBHOOK_ALLOW_PRIVATE_TARGETS=1 npm start`);
  stopHandlers.stopWith(() => receiver.close());
});
