/**
 * Requests one client address may send to the public pay routes in a window, WAF's in AWS and the
 * local gateway's default alike (docs/decisions/hosted-pay-page.md). Plain numbers, no CDK import, so
 * the local runtime reads them without loading aws-cdk-lib.
 */
export const publicRateLimit = { requests: 100, windowSeconds: 60 } as const;
