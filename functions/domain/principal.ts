import type { PortalScope } from './portal-session';

/** Who a request acts as: a merchant's API key, or a portal session one of its keys made. */
export type Principal =
  | { readonly kind: 'apiKey'; readonly keyPrefix: string }
  | {
      readonly kind: 'portalSession';
      readonly portalSessionId: string;
      readonly scope: PortalScope;
      /** The prefix of the API key that made the session. */
      readonly keyPrefix: string;
    };
