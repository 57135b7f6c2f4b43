import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  webhookReceiverDir,
  webhookReceiverDirIn,
} from '../../../tools/webhook-receiver/webhook-receiver-dir';

const repoRoot = resolve(import.meta.dirname, '..', '..', '..');

describe('webhookReceiverDir', () => {
  it("is webhook-receiver/ in the runtime's state folder, where npm start reads the CA", () => {
    expect(webhookReceiverDir({})).toBe(join(repoRoot, '.local', 'webhook-receiver'));
    expect(webhookReceiverDir({ LOCAL_STATE_DIR: '/tmp/state' })).toBe('/tmp/state/webhook-receiver');
    expect(webhookReceiverDir({ LOCAL_STATE_DIR: '/tmp/state' })).toBe(webhookReceiverDirIn('/tmp/state'));
  });

  it('is RECEIVER_DIR when set, whatever the state folder', () => {
    expect(webhookReceiverDir({ RECEIVER_DIR: '/tmp/hooks', LOCAL_STATE_DIR: '/tmp/state' })).toBe(
      '/tmp/hooks',
    );
    expect(webhookReceiverDir({ RECEIVER_DIR: 'hooks' })).toBe(resolve('hooks'));
  });
});
