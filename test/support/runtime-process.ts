import type { DynamoDbLocalTarget } from '../../tools/local/dynamodb-local';
import { startLocalRuntime } from '../../tools/local/runtime';
import { readLocalSettings } from '../../tools/local/settings';

/**
 * A local runtime in a process of its own, for tests that kill it: `node --import tsx <this file>
 * <json>`, where <json> is `{stateDir, tableName, dynamodb, settings}` (dynamodb as `DynamoDbLocalTarget`, settings as the
 * environment gives them). It prints `ready <baseUrl>` once it serves; runtime.json in the state
 * folder holds its merchant and key. It never stops by itself.
 */
const { stateDir, tableName, dynamodb, settings } = JSON.parse(process.argv[2] ?? '{}') as {
  stateDir: string;
  tableName: string;
  dynamodb: DynamoDbLocalTarget;
  settings: Record<string, string>;
};
const runtime = await startLocalRuntime({
  settings: readLocalSettings({ PORT: '0', ...settings }),
  inMemory: false,
  stateDir,
  dynamodb,
  tableName,
  log: (line) => console.error(line),
});
console.log(`ready ${runtime.baseUrl}`);
