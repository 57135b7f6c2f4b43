import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { runCommand, UsageError } from '../tools/cli/command-failure';
import { stopOnSignals } from '../tools/cli/stop-on-signals';
import { LocalDocumentPaths, type LocalRuntime, startLocalRuntime } from '../tools/local/runtime';
import { readLocalSettings } from '../tools/local/settings';

/**
 * `npm start [-- --in-memory]`: the whole service on this machine (docs/architecture.md#the-local-runtime).
 */
runCommand(async () => {
  const stopHandlers = stopOnSignals();
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--in-memory');
  if (unknown.length > 0)
    throw new UsageError(`unknown option ${unknown.join(' ')}: the only option is --in-memory`);
  const settings = readLocalSettings(process.env);
  const runtime = await startLocalRuntime({
    settings,
    inMemory: args.includes('--in-memory'),
    log: (message) => console.error(message),
  });
  stopHandlers.stopWith(() => runtime.stop());
  // Minted before anything is printed, so whoever waits for the first line finds the link with it.
  const portal = await mintPortalLink(runtime).catch((error: unknown) => {
    // A stop that came meanwhile ends the runtime under the request; the stop decides the exit.
    if (stopHandlers.stopping()) return undefined;
    throw error;
  });
  if (portal === undefined) return;
  console.log(`Merchant payments (${runtime.stage}) listening on ${runtime.baseUrl}`);
  console.log(
    `Merchant ${runtime.merchantId}; its API key is in ${join(settings.LOCAL_STATE_DIR ?? '.local', 'runtime.json')}`,
  );
  console.log(`API reference: ${runtime.baseUrl}${LocalDocumentPaths.apiReference}`);
  console.log(`Mail inbox (every email the runtime sends): ${runtime.mailInboxUrl}`);
  console.log(`Merchant portal (manage; the link opens once, until ${portal.expiresAt}): ${portal.url}`);
});

/**
 * A portal session of the ready merchant, minted through the runtime's own API as a merchant's
 * backend would (docs/decisions/merchant-portal-sessions.md): a `manage` link valid one hour.
 */
async function mintPortalLink(runtime: LocalRuntime): Promise<{ url: string; expiresAt: string }> {
  const response = await fetch(`${runtime.baseUrl}/merchants/${runtime.merchantId}/portal-sessions`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${runtime.apiKey}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': randomUUID(),
    },
    body: JSON.stringify({ scope: 'manage' }),
  });
  if (response.status !== 201) throw new Error(`creating a portal session answered ${response.status}`);
  return (await response.json()) as { url: string; expiresAt: string };
}
