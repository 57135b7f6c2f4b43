import { join } from 'node:path';
import { runCommand, UsageError } from '../lib/cli/command-failure';
import { stopOnSignals } from '../lib/cli/stop-on-signals';
import { LocalDocumentPaths, startLocalRuntime } from '../lib/local/runtime';
import { readLocalSettings } from '../lib/local/settings';

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
  console.log(`Merchant payments (${runtime.stage}) listening on ${runtime.baseUrl}`);
  console.log(
    `Merchant ${runtime.merchantId}; its API key is in ${join(settings.LOCAL_STATE_DIR ?? '.local', 'runtime.json')}`,
  );
  console.log(`API reference: ${runtime.baseUrl}${LocalDocumentPaths.apiReference}`);
  stopHandlers.stopWith(() => runtime.stop());
});
