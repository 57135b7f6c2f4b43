import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../lib/local/dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the DynamoDB Local shared by every test file of the run. */
    dynamodbEndpoint: string;
  }
}

/**
 * Starts one in-memory DynamoDB Local for the whole run on a free port; every test file creates
 * its own uniquely named tables in it, so files can run in parallel without sharing data.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const dynamodb = await startDynamoDbLocal({
    inMemory: true,
    log: (message) => console.error(`[global-setup] ${message}`),
  });
  console.error(`[global-setup] DynamoDB Local ready on ${dynamodb.endpoint} in ${Date.now() - started} ms`);
  project.provide('dynamodbEndpoint', dynamodb.endpoint);
  return () => dynamodb.stop();
}
