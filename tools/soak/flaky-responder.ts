import type { ReceivedRequest, ResponseHandler } from '../../test/support/https-receiver';

/** How the receiver answered one request: accepted, refused with a 500, or its connection dropped. */
export const Answer = { accepted: 'accepted', refused: 'refused', dropped: 'dropped' } as const;
export type Answer = (typeof Answer)[keyof typeof Answer];

export interface AnsweredRequest {
  readonly request: ReceivedRequest;
  readonly answer: Answer;
}

export interface FlakyResponder {
  readonly respond: ResponseHandler;
  /** Every request with the answer it got, oldest first (a live array). */
  readonly answered: AnsweredRequest[];
}

/**
 * Fails `failureRate` of the requests at random, half of those with a 500 and half by dropping the
 * connection, and keeps what it answered, so the checks know which attempt a delivery succeeded on.
 */
export function flakyResponder(failureRate: number, random: () => number = Math.random): FlakyResponder {
  const answered: AnsweredRequest[] = [];
  const respond: ResponseHandler = (request) => {
    const draw = random();
    const answer =
      draw >= failureRate ? Answer.accepted : draw < failureRate / 2 ? Answer.refused : Answer.dropped;
    answered.push({ request, answer });
    if (answer === Answer.accepted) return { status: 200, body: 'ok' };
    if (answer === Answer.refused) return { status: 500, body: 'failing on purpose' };
    return { status: 500, drop: true };
  };
  return { respond, answered };
}
