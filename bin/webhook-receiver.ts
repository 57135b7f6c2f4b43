import { relative, resolve } from 'node:path';
import { z } from 'zod';
import { stopOnSignals } from '../lib/local/stop-on-signals';
import { defaultWebhookReceiverDir, startWebhookReceiver } from '../lib/local/webhook-receiver';

const ReceiverSettings = z.object({
  RECEIVER_PORT: z.coerce.number().int().min(0).max(65535).default(4443),
  RECEIVER_HOST: z.string().min(1).default('127.0.0.1'),
  RECEIVER_DIR: z.string().min(1).optional(),
});

/** A path as a shell word: relative to here when inside it, quoted when it needs to be. */
function shellPath(path: string): string {
  const fromHere = relative(process.cwd(), path);
  const shown = fromHere.startsWith('..') ? path : fromHere;
  return /^[\w./-]+$/.test(shown) ? shown : `'${shown.replaceAll("'", `'\\''`)}'`;
}

/** `npm run webhook-receiver`: a local HTTPS endpoint that verifies and records webhook deliveries. */
async function main(): Promise<void> {
  const stopHandlers = stopOnSignals();
  const parsed = ReceiverSettings.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid webhook receiver settings: ${problems.join('; ')}`);
  }
  const settings = parsed.data;
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
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
