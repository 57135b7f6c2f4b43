import { startLocalRuntime } from '../../lib/local/runtime';
import { readLocalSettings } from '../../lib/local/settings';

/**
 * A local runtime in a process of its own, for tests that kill it: `node --import tsx <this file>
 * <json>`, where <json> is `{stateDir, tableName, dynamodbEndpoint, settings}` (settings as the
 * environment gives them). It prints `ready <baseUrl>` once it serves; runtime.json in the state
 * folder holds its merchant and key. It never stops by itself.
 */
const { stateDir, tableName, dynamodbEndpoint, settings } = JSON.parse(process.argv[2] ?? '{}') as {
  stateDir: string;
  tableName: string;
  dynamodbEndpoint: string;
  settings: Record<string, string>;
};
const runtime = await startLocalRuntime({
  settings: readLocalSettings({ PORT: '0', ...settings }),
  inMemory: false,
  stateDir,
  dynamodbEndpoint,
  tableName,
  log: (line) => console.error(line),
});
console.log(`ready ${runtime.baseUrl}`);
