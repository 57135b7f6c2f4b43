import { randomBytes } from 'node:crypto';
import { functionEnvironment } from '../../config';
import { newId } from '../../domain/ids';
import {
  browserOrigin,
  hashPortalToken,
  newPortalToken,
  PortalSessionLimits,
  type PortalSessionRecord,
  PortalTokenKind,
  portalSessionView,
} from '../../domain/portal-session';
import { isoTimestamp } from '../../domain/time';
import { ForbiddenError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { secretSealer } from '../../secrets/secret-sealer-from-env';
import { commitWithIdempotency } from '../../store/idempotency';
import { buildPutPortalSession } from '../../store/portal-sessions';
import { portalSessionRoutes } from './routes';

const sealContextOf = (stored: { merchantId: string; portalSessionId: string }) => ({
  merchantId: stored.merchantId,
  portalSessionId: stored.portalSessionId,
});

/**
 * 201 with the only copy of the link. The table keeps the link token's hash; the idempotency record
 * keeps the link sealed, as it keeps a new signing secret, so a retry of the same request gets the
 * same link back (docs/decisions/merchant-portal-sessions.md).
 */
export const handler = httpHandler(
  portalSessionRoutes.createPortalSession,
  async ({ params, body, principal, baseUrl, idempotency, now }) => {
    // Only an API key mints sessions: the route names no portal scope, so a session never gets here.
    if (principal?.kind !== 'apiKey')
      throw new ForbiddenError('Only an API key can create a portal session.');
    const portalSessionId = newId('psn');
    const linkToken = newPortalToken(
      PortalTokenKind.link,
      functionEnvironment().STAGE,
      portalSessionId,
      (size) => randomBytes(size),
    );
    const expiresInSeconds = body.expiresInSeconds ?? PortalSessionLimits.defaultExpiresInSeconds;
    const record: PortalSessionRecord = {
      portalSessionId,
      merchantId: params.merchantId,
      scope: body.scope,
      allowedOrigins: [...new Set((body.allowedOrigins ?? []).map(browserOrigin))],
      createdAt: isoTimestamp(now),
      expiresAt: isoTimestamp(new Date(now.getTime() + expiresInSeconds * 1000)),
      keyId: principal.keyId,
      linkTokenHash: hashPortalToken(linkToken),
    };
    const view = portalSessionView(record);
    const url = `${baseUrl}/portal/${portalSessionId}#${linkToken}`;
    const sealedUrl = await secretSealer().seal(url, sealContextOf(view));
    return commitWithIdempotency(
      idempotency,
      { status: 201, body: { ...view, url } },
      [buildPutPortalSession(record)],
      { ...view, sealedUrl },
    );
  },
  {
    reviveReplay: async (storedBody) => {
      const { sealedUrl, ...view } = storedBody as ReturnType<typeof portalSessionView> & {
        sealedUrl: string;
      };
      return { ...view, url: await secretSealer().open(sealedUrl, sealContextOf(view)) };
    },
  },
);
