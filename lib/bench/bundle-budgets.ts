import { authorizerHandlerModule } from '../stack';

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
  /** Bytes of any function but the pay page, × the bare function's. */
  bytesRatio: 1.5,
  /** The pay page carries no SDK: its bytes are held to an absolute size. */
  payPageBytes: 60_000,
} as const;

/** The import CPU budget of `module`, × the bare function's. */
export function cpuBudgetOf(module: string): number {
  return module === authorizerHandlerModule ? bundleBudgets.authorizerCpuRatio : bundleBudgets.cpuRatio;
}
