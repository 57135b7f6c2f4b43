/**
 * The hosted pay page as `build-pay-page.ts` builds it from `page/` into `pay-page-document.js`
 * (git-ignored): the stack's bundling of the page's function, the local runtime and the test run
 * build it before anything loads it; `npm run pay-page` builds it by hand.
 */

/** The whole page: one document with one inline style and one inline script. */
export declare const payPageHtml: string;

/** The page's Content-Security-Policy, allowing exactly its inline style and script by SHA-256. */
export declare const payPageContentSecurityPolicy: string;
