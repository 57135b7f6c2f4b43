import { randomUUID } from 'node:crypto';
import type { ProcessorAccount } from '../../domain/processor-account';
import { isoTimestamp } from '../../domain/time';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { processorAccounts } from '../../payments/processor-accounts-for-stage';
import { secretSealer } from '../../secrets/secret-sealer-from-env';
import { merchantKeys } from '../../store/merchants';
import {
  buildUnlock,
  callProcessor,
  completeProcessorCall,
  reserveProcessorCall,
} from '../../store/payments';
import { buildPutProcessorAccount, getProcessorAccount } from '../../store/processor-accounts';
import { buildPutAccountLookup } from '../../store/processor-events';
import { processorAccountRoutes } from './routes';

const merchantExists = { expression: 'attribute_exists(PK)' };
const busyMessage = "Another request is linking this merchant's processor account; retry in a few seconds.";

/** The onboarding link is a bearer of the merchant's account: kept sealed, as a portal link is. */
const sealContextOf = (account: Pick<ProcessorAccount, 'merchantId' | 'processorAccountId'>) => ({
  merchantId: account.merchantId,
  processorAccountId: account.processorAccountId,
});

/**
 * 201 with the merchant's processor account, opened now or reused, and a fresh onboarding link. The
 * merchant is locked while the processor is called, so two requests never open two accounts; the
 * processor's idempotency keys come from the request's Idempotency-Key scope, so a retried request
 * opens none twice (docs/decisions/stripe-connect-accounts.md).
 */
export const handler = httpHandler(
  processorAccountRoutes.linkProcessorAccount,
  async ({ params, body, idempotency, now }) => {
    const accounts = processorAccounts();
    const { merchantId } = params;
    const merchantKey = merchantKeys.merchant(merchantId);
    const callId = await reserveProcessorCall(idempotency, {
      callId: randomUUID(),
      lock: { key: merchantKey, asRead: merchantExists, busyMessage },
    });
    if (callId === undefined) throw new NotFoundError();
    // Read under the lock: no other request can link an account meanwhile.
    const existing = await getProcessorAccount(merchantId);
    const linked = await callProcessor(idempotency, callId, merchantKey, () =>
      accounts.link({
        merchantId,
        existingAccountId: existing?.processorAccountId,
        returnUrl: body.returnUrl,
        refreshUrl: body.refreshUrl,
        idempotencyKey: `merchant-payments-${idempotency.scopeHash}`,
      }),
    );
    const at = isoTimestamp(now);
    const account =
      existing ??
      newAccount(linked.opened, { merchantId, processor: accounts.name, createdAt: at, updatedAt: at });
    const { url, expiresAt } = linked.onboarding;
    const view = { ...account, onboardingUrlExpiresAt: expiresAt };
    const stored = { ...view, sealedOnboardingUrl: await secretSealer().seal(url, sealContextOf(account)) };
    const unlock = { Update: buildUnlock(merchantKey, callId) };
    const items =
      existing === undefined
        ? [
            buildPutProcessorAccount(account),
            buildPutAccountLookup(account.processor, account.processorAccountId, merchantId),
            unlock,
          ]
        : [unlock];
    await completeProcessorCall(idempotency, callId, { status: 201, body: stored }, items);
    return { status: 201, body: { ...view, onboardingUrl: url } };
  },
  {
    reviveReplay: async (storedBody) => {
      const { sealedOnboardingUrl, ...view } = storedBody as ProcessorAccount & {
        onboardingUrlExpiresAt: string;
        sealedOnboardingUrl: string;
      };
      return { ...view, onboardingUrl: await secretSealer().open(sealedOnboardingUrl, sealContextOf(view)) };
    },
  },
);

/** The account the processor opened, where none existed before. */
function newAccount(
  opened: Pick<ProcessorAccount, 'processorAccountId' | 'state'> | undefined,
  fields: Omit<ProcessorAccount, 'processorAccountId' | 'state'>,
): ProcessorAccount {
  if (opened === undefined) throw new Error('The processor opened no account where none existed.');
  return { ...fields, ...opened };
}
