/**
 * The merchant portal as `build-portal-page.ts` builds it from `page/` into `portal-page-document.js`
 * (git-ignored): the stack's bundling of the portal's functions, the local runtime and the test run
 * build it before anything loads it; `npm run portal-page` builds it by hand.
 */

/** The document: it links its script and stylesheet by relative URL, nothing inline. */
export declare const portalPageHtml: string;

/** The script and the stylesheet, each named `portal-<content hash>.<js|css>`. */
export declare const portalAssets: readonly {
  readonly name: string;
  readonly contentType: string;
  readonly body: string;
}[];
