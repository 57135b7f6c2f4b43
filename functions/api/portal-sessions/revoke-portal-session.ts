import { portalSessionView } from '../../domain/portal-session';
import { isoTimestamp } from '../../domain/time';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { commitWithIdempotency } from '../../store/idempotency';
import { buildRevokePortalSession, getPortalSession } from '../../store/portal-sessions';
import { TransactionConditionFailed } from '../../store/transaction';
import { portalSessionRoutes } from './routes';

const notFound = 'The portal session does not exist.';

/**
 * 200 with the session, `revokedAt` set: its link no longer opens and its bearer is refused from the
 * next call on. Revoking again changes nothing and answers the same; another merchant's id is a 404.
 */
export const handler = httpHandler(
  portalSessionRoutes.revokePortalSession,
  async ({ params, idempotency, now }) => {
    const stored = await getPortalSession(params.portalSessionId);
    if (stored === undefined || stored.merchantId !== params.merchantId) throw new NotFoundError(notFound);
    const revoked = { ...stored, revokedAt: stored.revokedAt ?? isoTimestamp(now) };
    try {
      return await commitWithIdempotency(idempotency, { status: 200, body: portalSessionView(revoked) }, [
        buildRevokePortalSession(params.merchantId, params.portalSessionId, revoked.revokedAt),
      ]);
    } catch (error) {
      if (error instanceof TransactionConditionFailed) throw new NotFoundError(notFound);
      throw error;
    }
  },
);
