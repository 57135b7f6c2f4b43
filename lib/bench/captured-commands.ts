import { randomUUID } from 'node:crypto';
import {
  GetItemCommand,
  type GetItemCommandInput,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteItemsCommand,
  type TransactWriteItemsCommandInput,
} from '@aws-sdk/client-dynamodb';
import { documentClient } from '../../functions/store/client';
import { routeInvocation } from '../local/gateway';

/** One DynamoDB command a route sent, as the wire sees it (attribute values already marshalled). */
export interface CapturedCommand {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/**
 * The DynamoDB commands route handlers sent while `act` runs, with their inputs. Captured after the
 * document client has marshalled them, so they can be sent again with the plain client's commands.
 */
export async function capturedCommandsDuring(act: () => Promise<void>): Promise<CapturedCommand[]> {
  const commands: CapturedCommand[] = [];
  const client = documentClient();
  const name = `capture-dynamodb-commands-${randomUUID()}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (routeInvocation.getStore() !== undefined) {
        commands.push({
          name: String(context.commandName),
          input: structuredClone(args.input as object) as Record<string, unknown>,
        });
      }
      return next(args);
    },
    { step: 'serialize', priority: 'high', name },
  );
  try {
    await act();
  } finally {
    client.middlewareStack.remove(name);
  }
  return commands;
}

/** Sends one captured command again, raw, through the same client (and connections) the routes use. */
export async function sendCaptured(command: CapturedCommand): Promise<void> {
  const client = documentClient();
  switch (command.name) {
    case 'GetItemCommand':
      await client.send(new GetItemCommand(command.input as unknown as GetItemCommandInput));
      return;
    case 'QueryCommand':
      await client.send(new QueryCommand(command.input as unknown as QueryCommandInput));
      return;
    case 'TransactWriteItemsCommand':
      await client.send(
        new TransactWriteItemsCommand(command.input as unknown as TransactWriteItemsCommandInput),
      );
      return;
    default:
      throw new Error(`${command.name} cannot be replayed by the bench`);
  }
}
