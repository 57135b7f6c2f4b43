import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callLocalOperator, noLocalRuntimeMessage } from '../../../tools/admin/local-operator';
import {
  MaxSocketPathBytes,
  OperatorRoutes,
  operatorSocketPath,
  startOperatorChannel,
} from '../../../tools/local/operator-channel';

let stateDir: string;
const closers: (() => Promise<void>)[] = [];
beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'op-'));
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await rm(stateDir, { recursive: true, force: true });
});

function operations() {
  const state = { deadLetters: 3, reconciles: 0 };
  return {
    state,
    operations: {
      deadLetterCount: () => state.deadLetters,
      redriveDeadLetters: () => {
        const moved = state.deadLetters;
        state.deadLetters = 0;
        return moved;
      },
      reconcileNow: async () => {
        state.reconciles += 1;
        return { requeued: 2 };
      },
    },
  };
}

async function started() {
  const { state, operations: ops } = operations();
  const channel = await startOperatorChannel({ stateDir, operations: ops });
  closers.push(() => channel.close());
  return { state, channel };
}

describe('startOperatorChannel', () => {
  it('answers the CLI’s calls on a socket only its owner may open (0600), and removes it on close', async () => {
    const { state, channel } = await started();
    expect(channel.socketPath).toBe(join(stateDir, 'operator.sock'));
    expect((await stat(channel.socketPath)).mode & 0o777).toBe(0o600);

    expect(await callLocalOperator(stateDir, OperatorRoutes.deadLetters)).toEqual({ count: 3 });
    expect(await callLocalOperator(stateDir, OperatorRoutes.redrive)).toEqual({ moved: 3 });
    expect(await callLocalOperator(stateDir, OperatorRoutes.deadLetters)).toEqual({ count: 0 });
    expect(await callLocalOperator(stateDir, OperatorRoutes.reconcile)).toEqual({ requeued: 2 });
    expect(state.reconciles).toBe(1);

    await channel.close();
    await expect(stat(channel.socketPath)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(callLocalOperator(stateDir, OperatorRoutes.reconcile)).rejects.toThrow(
      noLocalRuntimeMessage,
    );
  });

  it('answers 404 to a route it does not have', async () => {
    const { channel } = await started();
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const call = request(
        { socketPath: channel.socketPath, method: 'DELETE', path: '/dead-letters' },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      call.on('error', reject);
      call.end();
    });
    expect(status).toBe(404);
  });

  it('replaces a socket file a killed runtime left behind', async () => {
    await writeFile(join(stateDir, 'operator.sock'), 'stale');
    await started();
    expect(await callLocalOperator(stateDir, OperatorRoutes.deadLetters)).toEqual({ count: 3 });
  });

  it('refuses to start while another runtime answers on the same state folder', async () => {
    await started();
    await expect(startOperatorChannel({ stateDir, operations: operations().operations })).rejects.toThrow(
      /another npm start is running with the state folder/,
    );
    expect(await callLocalOperator(stateDir, OperatorRoutes.deadLetters)).toEqual({ count: 3 });
  });
});

describe('operatorSocketPath', () => {
  it(`refuses a path over ${MaxSocketPathBytes} bytes in one line naming LOCAL_STATE_DIR`, () => {
    const deep = `/tmp/${'d'.repeat(MaxSocketPathBytes - '/tmp//operator.sock'.length + 1)}`;
    expect(() => operatorSocketPath(deep)).toThrow(
      /is longer than 107 bytes: set LOCAL_STATE_DIR to a shorter folder$/,
    );
    expect(operatorSocketPath(deep.slice(0, -1))).toHaveLength(MaxSocketPathBytes);
  });
});
