import { randomBytes } from 'node:crypto';
import { Stage } from '../../functions/config';
import { generateApiKey } from '../../functions/domain/api-key';
import { CheckFailure } from './check-failure';
import type { CheckRunner } from './check-runner';
import {
  describeResponse,
  errorOf,
  expectStatus,
  type SmokeRequest,
  type SmokeResponse,
} from './smoke-client';
import type { SmokeKey } from './smoke-key';

export interface StageUnderTest {
  readonly request: SmokeRequest;
  readonly merchantId: string;
  readonly key: SmokeKey;
}

/**
 * The checks every stage passes, reading only: no key and a key never issued are refused 401 in
 * the documented error shape, the key reads the merchant's invoices, and the sandbox routes exist
 * where the key's stage says. Resolves with whether the key could read, which the round trip needs.
 */
export async function checkAccess(runner: CheckRunner, stage: StageUnderTest): Promise<boolean> {
  const listInvoices = (key: string | null) =>
    stage.request('GET', 'invoices', { key, query: { merchantId: stage.merchantId, limit: 1 } });
  await runner.run('a request without a key is refused', async () => ({
    detail: expectUnauthorized(await listInvoices(null)),
    value: true,
  }));
  // A well-formed key of the same stage, so the authorizer looks it up rather than refusing its form.
  const neverIssued = generateApiKey(stage.key.stage, (size) => randomBytes(size)).apiKey;
  await runner.run('a request with a key never issued is refused', async () => ({
    detail: expectUnauthorized(await listInvoices(neverIssued)),
    value: true,
  }));
  const read = await runner.run('the key reads invoices', async () => {
    const page = expectStatus(await listInvoices(stage.key.apiKey), 200, 'GET /invoices');
    const pageInfo = page.page as { hasMore?: unknown } | undefined;
    if (!Array.isArray(page.items) || typeof pageInfo?.hasMore !== 'boolean') {
      throw new CheckFailure('GET /invoices answered 200 without the list shape {items, page: {hasMore}}');
    }
    return {
      detail: `${stage.key.keyPrefix}…, ${stage.key.stage}, merchant ${stage.merchantId}`,
      value: true,
    };
  });
  await checkSandboxRoutes(runner, stage);
  return read === true;
}

function expectUnauthorized(response: SmokeResponse): string {
  const error = errorOf(response.body);
  if (response.status !== 401 || error?.code !== 'unauthorized') {
    throw new CheckFailure(
      `answered ${describeResponse(response)}, expected 401 unauthorized in the error shape`,
    );
  }
  return '401 unauthorized';
}

/**
 * The sandbox simulator mints payments from nothing, so production must not serve it. An incomplete
 * payout request without an Idempotency-Key is refused before anything is written: 400 where the
 * route exists, 404 where it does not.
 */
async function checkSandboxRoutes(runner: CheckRunner, stage: StageUnderTest): Promise<void> {
  const inSandbox = stage.key.stage === Stage.sandbox;
  const expected = inSandbox ? 400 : 404;
  await runner.run(
    inSandbox ? 'the sandbox routes are served' : 'production serves no sandbox routes',
    async () => {
      const response = await stage.request('POST', 'sandbox/payouts', {
        key: stage.key.apiKey,
        body: { merchantId: stage.merchantId },
      });
      if (response.status !== expected || errorOf(response.body) === undefined) {
        throw new CheckFailure(
          `POST /sandbox/payouts without an Idempotency-Key answered ${describeResponse(response)}, expected ${expected} in the error shape`,
        );
      }
      return {
        detail: `POST /sandbox/payouts: ${response.status} ${errorOf(response.body)?.code}`,
        value: true,
      };
    },
  );
}
