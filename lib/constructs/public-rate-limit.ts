/**
 * How many requests one client address may send to the public pay routes (docs/decisions/hosted-pay-page.md)
 * in one window: the web ACL's rate-based rule enforces it in AWS, and the local gateway's
 * `PUBLIC_RATE_LIMIT_PER_MINUTE` defaults to the same number. Plain numbers, no CDK import, so the
 * local runtime can read them without loading aws-cdk-lib.
 *
 * A payer opens the page, reads the invoice and pays: three requests, a few more on a decline and
 * retry. 100 a minute leaves room for a shared address (an office, a carrier NAT) and still stops
 * a script guessing slugs or hammering the processor from one address.
 */
export const publicRateLimit = { requests: 100, windowSeconds: 60 } as const;
