import type { TestRuntime } from './local-runtime';

/**
 * Waits until the mail pipeline is done with what the writes so far asked of it: the stream routed
 * (so every email is made) and no email of the runtime's table still queued, 25 s at most. A test
 * comparing the whole table before and after a request takes its "before" after this.
 */
export async function mailSettled(t: TestRuntime): Promise<void> {
  await t.runtime.drainStream();
  const deadline = Date.now() + 25_000;
  for (;;) {
    const items = await t.scanTable();
    const queued = items.filter(
      (item) =>
        (item.entityType === 'InvoiceEmail' || item.entityType === 'EndpointNotice') &&
        item.status === 'queued',
    );
    if (queued.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${queued.length} email(s) still queued after 25 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
