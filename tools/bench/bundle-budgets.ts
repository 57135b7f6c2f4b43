import { authorizerHandlerModule } from '../../lib/stack';

/**
 * The budgets of every function's bundle, shared by `test/infra/function-bundles.test.ts` and the
 * bench: import CPU time as a multiple of the bare function's (what a cold start pays), bytes as a
 * guard. Why each has its value: `docs/performance.md#bundle-budgets`.
 */
export const bundleBudgets = {
  /** Import CPU of a route or delivery-pipeline function, × the bare function's. */
  cpuRatio: 1.25,
  /** Import CPU of the authorizer, which runs before every uncached request, × the bare function's. */
  authorizerCpuRatio: 1.1,
  /**
   * Import CPU of a function that calls Stripe, × the bare function's: the official SDK's evaluation is
   * about 0.1× on its own, and is not written again by hand to save it
   * (docs/performance.md#bundle-budgets).
   */
  stripeCpuRatio: 1.4,
  /** Bytes of any function but the pay page and those that call Stripe, × the bare function's. */
  bytesRatio: 1.5,
  /**
   * Bytes of a function that calls Stripe, × the bare function's: the official SDK adds about 250 KB
   * minified, whole (its client attaches every resource, so nothing of it tree-shakes), and is not
   * written again by hand to save them (docs/processor.md#what-it-costs).
   */
  stripeBytesRatio: 2.3,
  /** The pay page carries no SDK: its bytes are held to an absolute size. */
  payPageBytes: 60_000,
} as const;

/** The functions that carry the Stripe SDK; no other may (`test/infra/function-bundles.test.ts`). */
export const stripeHandlerModules: readonly string[] = [
  'api/pay/create-checkout-session',
  'api/payments/create-refund',
  'api/processor-accounts/link-processor-account',
  'api/processor-events/receive-stripe-event',
];

/** The byte budget of `module` (any but the pay page), × the bare function's. */
export function bytesBudgetOf(module: string): number {
  return stripeHandlerModules.includes(module) ? bundleBudgets.stripeBytesRatio : bundleBudgets.bytesRatio;
}

/** The import CPU budget of `module`, × the bare function's. */
export function cpuBudgetOf(module: string): number {
  if (module === authorizerHandlerModule) return bundleBudgets.authorizerCpuRatio;
  return stripeHandlerModules.includes(module) ? bundleBudgets.stripeCpuRatio : bundleBudgets.cpuRatio;
}
