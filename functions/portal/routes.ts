import * as z from 'zod/mini';
import { portalPagePathMaxLength } from '../domain/portal-framing';
import { defineRoute, type RouteDefinition } from '../route-definition';
import { documented } from '../validation/schema-meta';
import { text } from '../validation/text';

const PortalPagePathParams = z.strictObject({
  portalSessionId: documented(text({ min: 1, max: portalPagePathMaxLength }), {
    description:
      'The portal session id (psn_…) of the link. Any other value of at most ' +
      `${portalPagePathMaxLength} characters gets the same page, framed by nobody, which then says the ` +
      'link is not valid; a longer one is a 404 `not_found`.',
  }),
});

const PortalAssetPathParams = z.strictObject({
  asset: documented(text({ min: 1, max: 256 }), {
    description: 'The hashed name of the script or stylesheet the page links, e.g. portal-3Jw1x9QzY0aB.js.',
  }),
});

/** The merchant portal's document and its two assets (docs/decisions/merchant-portal-page.md). */
export const portalPageRoutes = {
  servePortalPage: defineRoute({
    operationId: 'servePortalPage',
    method: 'GET',
    path: '/portal/{portalSessionId}',
    summary: 'The merchant portal; open the link a portal session gives, /portal/{id}#<token>',
    tag: 'Portal',
    handler: 'portal/serve-portal-page',
    merchantScope: 'none',
    request: { params: PortalPagePathParams },
    successStatus: 200,
    response: documented(text(), { description: 'The merchant portal (HTML).' }),
    access: 'public',
    contentType: 'text/html',
    answersNotFound: true,
  }),
  servePortalAsset: defineRoute({
    operationId: 'servePortalAsset',
    method: 'GET',
    path: '/portal/assets/{asset}',
    summary: "The portal's script or stylesheet by its content-hashed name, cached for a year",
    tag: 'Portal',
    handler: 'portal/serve-portal-asset',
    merchantScope: 'none',
    request: { params: PortalAssetPathParams },
    successStatus: 200,
    response: documented(text(), { description: 'The script (text/javascript) or stylesheet (text/css).' }),
    access: 'public',
    contentType: ['text/javascript', 'text/css'],
    answersNotFound: true,
    tableAccess: 'none',
  }),
} as const satisfies Record<string, RouteDefinition>;
