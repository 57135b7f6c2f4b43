import { randomUUID } from 'node:crypto';
import {
  GetCommand,
  type GetCommandInput,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../functions/store/client';
import { routeInvocation } from '../local/gateway';

/** One DynamoDB command a route sent, with its input as the document client was given it. */
export interface CapturedCommand {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/**
 * The DynamoDB commands route handlers sent while `act` runs, with their inputs as plain values (the
 * document client marshals them after this), so they can be sent again through the same client.
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
      await client.send(new GetCommand(command.input as unknown as GetCommandInput));
      return;
    case 'QueryCommand':
      await client.send(new QueryCommand(command.input as unknown as QueryCommandInput));
      return;
    case 'TransactWriteItemsCommand':
      await client.send(new TransactWriteCommand(command.input as unknown as TransactWriteCommandInput));
      return;
    default:
      throw new Error(`${command.name} cannot be replayed by the bench`);
  }
}
