import { randomUUID } from 'node:crypto';
import { documentClient } from '../../functions/store/client';

/**
 * The commands this process's document client sent while `act` runs, in order, of those `counted`
 * accepts when they are sent (all by default).
 */
export async function documentClientCommandsDuring(
  act: () => Promise<void>,
  counted: () => boolean = () => true,
): Promise<string[]> {
  const commands: string[] = [];
  const client = documentClient();
  const name = `count-dynamodb-commands-${randomUUID()}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (counted()) commands.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    await act();
  } finally {
    client.middlewareStack.remove(name);
  }
  return commands;
}
