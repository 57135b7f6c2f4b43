import { JavaMissingError } from '../lib/local/dynamodb-local';
import { startLocalRuntime } from '../lib/local/runtime';
import { readLocalSettings } from '../lib/local/settings';
import { stopOnSignals } from '../lib/local/stop-on-signals';

/** `npm start [-- --in-memory]`: the whole service on this machine (DESIGN §5). */
async function main(): Promise<void> {
  const stopHandlers = stopOnSignals();
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--in-memory');
  if (unknown.length > 0) throw new Error(`Unknown option(s): ${unknown.join(' ')} (supported: --in-memory)`);
  const settings = readLocalSettings(process.env);
  const runtime = await startLocalRuntime({
    settings,
    inMemory: args.includes('--in-memory'),
    log: (message) => console.error(message),
  });
  console.log(`Merchant payments (${runtime.stage}) listening on ${runtime.baseUrl}`);
  console.log(`Merchant ${runtime.merchantId}; its API key is in .local/runtime.json`);
  stopHandlers.stopWith(() => runtime.stop());
}

main().catch((error: unknown) => {
  // A missing Java is one line saying what to install; anything else keeps its stack for the engineer.
  console.error(
    error instanceof JavaMissingError ? error.message : error instanceof Error ? error.stack : String(error),
  );
  process.exit(1);
});
