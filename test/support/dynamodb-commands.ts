import { randomUUID } from 'node:crypto';
import { documentClient } from '../../functions/store/client';

/** What a document-client middleware sees: the command's name and its (document-level) input. */
export type DocumentClientMiddleware = (
  next: (args: { input: any }) => Promise<{ output: any }>,
  context: { commandName?: string },
) => (args: { input: any }) => Promise<{ output: any }>;

/**
 * Runs `act` with `middleware` on the shared document client, the one the runtime's handlers and the
 * delivery pipeline in this process send through; it sees plain values, before marshalling.
 */
export async function withDocumentClientMiddleware<T>(
  middleware: DocumentClientMiddleware,
  act: () => Promise<T>,
): Promise<T> {
  const client = documentClient();
  const name = `observe-dynamodb-commands-${randomUUID()}`;
  client.middlewareStack.add(middleware as never, { step: 'initialize', name });
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
