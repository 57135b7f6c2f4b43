import type { PortalScope } from './portal-session';

/**
 * Who a request acts as: a merchant's API key, or a portal session one of its keys made. Either way
 * the key is named, by its id (what the table is keyed by) and its prefix (what logs may show).
 */
export type Principal = { readonly keyId: string; readonly keyPrefix: string } & (
  | { readonly kind: 'apiKey' }
  | { readonly kind: 'portalSession'; readonly portalSessionId: string; readonly scope: PortalScope }
);
