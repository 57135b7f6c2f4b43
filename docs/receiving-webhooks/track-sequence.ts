// Finds missing deliveries and stale updates of a Merchant Payments webhook endpoint from the
// ordering headers. Node.js 18 or later, no dependencies.

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** The ordering headers of one delivery; each is absent from deliveries created before it was sent. */
export interface DeliveryOrdering {
  /** `Merchant-Webhook-Event-Id`: the event (`evt_…`); a redelivery carries the same one. */
  eventId: string | undefined;
  /** `Merchant-Webhook-Sequence`: the delivery's number among all deliveries to this endpoint. */
  sequence: number | undefined;
  /** `Merchant-Webhook-Object-Version`: the version of the event's object after the change. */
  objectVersion: number | undefined;
}

function header(headers: Headers, name: string): string | undefined {
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  const value = entry?.[1];
  return Array.isArray(value) ? value[0] : value;
}

function positiveInteger(value: string | undefined): number | undefined {
  return value !== undefined && /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : undefined;
}

/** Reads the ordering headers of a verified delivery (names are matched case-insensitively). */
export function orderingOf(headers: Headers): DeliveryOrdering {
  return {
    eventId: header(headers, 'merchant-webhook-event-id'),
    sequence: positiveInteger(header(headers, 'merchant-webhook-sequence')),
    objectVersion: positiveInteger(header(headers, 'merchant-webhook-object-version')),
  };
}

/**
 * The sequence numbers one endpoint has handled. Deliveries arrive out of order (retries, parallel
 * sends), so a number below the highest seen is only missing for now: treat it as lost once it has
 * not arrived for longer than the retries take (about 5 minutes), then look it up in the
 * deliveries list and redeliver it. Memory stays small: only numbers above the last unbroken run
 * are kept.
 */
export class SequenceTracker {
  /** Every number up to this one was handled (or settled). */
  #handledUpTo: number;
  #handledAbove = new Set<number>();

  /** `startAfter`: the last number handled before this tracker started, if you keep it elsewhere. */
  constructor(startAfter = 0) {
    this.#handledUpTo = startAfter;
  }

  /** Records a handled delivery's number (repeats are harmless). */
  record(sequence: number): void {
    if (sequence <= this.#handledUpTo) return;
    this.#handledAbove.add(sequence);
    while (this.#handledAbove.delete(this.#handledUpTo + 1)) this.#handledUpTo += 1;
  }

  /** Marks a missing number as dealt with, e.g. once its delivery was redelivered and handled. */
  settle(sequence: number): void {
    this.record(sequence);
  }

  /** The numbers below the highest handled one that have not been handled, lowest first. */
  missing(): number[] {
    const highest = Math.max(this.#handledUpTo, ...this.#handledAbove);
    const missing: number[] = [];
    for (let sequence = this.#handledUpTo + 1; sequence < highest; sequence += 1) {
      if (!this.#handledAbove.has(sequence)) missing.push(sequence);
    }
    return missing;
  }
}

/** The object an event is about: the invoice, payment or payout named in its `data`. */
export function objectIdOf(event: { type: string; data: Record<string, unknown> }): string | undefined {
  const field = event.type.startsWith('invoices.')
    ? 'invoiceId'
    : event.type.startsWith('payments.')
      ? 'paymentId'
      : event.type.startsWith('payouts.')
        ? 'payoutId'
        : undefined;
  const id = field === undefined ? undefined : event.data[field];
  return typeof id === 'string' ? id : undefined;
}

/**
 * The latest version of each object you have applied. A delivery whose object version is not
 * newer is stale (an older change arriving late, or a redelivery of an old event): skip it rather
 * than overwrite newer state. Keep this in your database, beside the object, in production.
 */
export class LatestVersions {
  #versions = new Map<string, number>();

  /** True, and remembered, when `version` is newer than any applied for `objectId`; false when stale. */
  applyIfNewer(objectId: string, version: number): boolean {
    const latest = this.#versions.get(objectId);
    if (latest !== undefined && version <= latest) return false;
    this.#versions.set(objectId, version);
    return true;
  }
}

/** A delivery as `GET …/webhook-endpoints/{id}/deliveries` lists it (the fields used here). */
export interface ListedDelivery {
  webhookDeliveryId: string;
  eventId: string;
  sequence: number | null;
  status: string;
}

export interface DeliveriesPage {
  items: ListedDelivery[];
  page: { hasMore: boolean; nextCursor?: string };
}

/**
 * Finds the delivery with number `sequence` in the endpoint's deliveries list, following the pages
 * (newest first) that `listPage` fetches: call it with your API client, passing the cursor on.
 */
export async function findDeliveryBySequence(
  listPage: (cursor: string | undefined) => Promise<DeliveriesPage>,
  sequence: number,
): Promise<ListedDelivery | undefined> {
  let cursor: string | undefined;
  do {
    const { items, page } = await listPage(cursor);
    const found = items.find((delivery) => delivery.sequence === sequence);
    if (found !== undefined) return found;
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor !== undefined);
  return undefined;
}
