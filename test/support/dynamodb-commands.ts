import { randomUUID } from 'node:crypto';
import { documentClient } from '../../functions/store/client';

/** What a document-client middleware sees: the command's name and its (document-level) input. */
export type DocumentClientMiddleware = (
  next: (args: { input: any }) => Promise<{ output: any }>,
  context: { commandName?: string },
) => (args: { input: any }) => Promise<{ output: any }>;

/**
 * Runs `act` with `middleware` on the shared document client, the one the runtime's handlers and the
 * delivery pipeline in this process send through. At the `initialize` step (the default) it sees
 * plain values, before marshalling, once per command; at `deserialize` it runs inside the SDK's
 * retry loop, once per try, so an error it throws there is retried as one from DynamoDB would be.
 */
export async function withDocumentClientMiddleware<T>(
  middleware: DocumentClientMiddleware,
  act: () => Promise<T>,
  step: 'initialize' | 'deserialize' = 'initialize',
): Promise<T> {
  const client = documentClient();
  const name = `observe-dynamodb-commands-${randomUUID()}`;
  // The stack's overloads each take one step's literal, not a union of them.
  if (step === 'initialize') client.middlewareStack.add(middleware as never, { step, name });
  else client.middlewareStack.add(middleware as never, { step, name });
  try {
    return await act();
  } finally {
    client.middlewareStack.remove(name);
  }
}

/**
 * The commands this process's document client sent while `act` runs, in order, of those `counted`
 * accepts when they are sent (all by default).
 */
export async function documentClientCommandsDuring(
  act: () => Promise<void>,
  counted: () => boolean = () => true,
): Promise<string[]> {
  const commands: string[] = [];
  await withDocumentClientMiddleware(
    (next, context) => async (args) => {
      if (counted()) commands.push(String(context.commandName));
      return next(args);
    },
    act,
  );
  return commands;
}
