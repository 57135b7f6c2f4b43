import { describe, expect, it } from 'vitest';
import { Answer, flakyResponder } from '../../../tools/soak/flaky-responder';
import type { ReceivedRequest } from '../../support/https-receiver';

const request: ReceivedRequest = {
  method: 'POST',
  path: '/hooks',
  headers: {},
  rawBody: Buffer.from('{}'),
  receivedAt: 0,
};

describe('flakyResponder', () => {
  it('refuses the lower half of the failure rate with a 500, drops the upper half and accepts the rest', async () => {
    const draws = [0.1, 0.2, 0.3, 0.9];
    const responder = flakyResponder(0.3, () => draws.shift() as number);

    const responses = [];
    for (let index = 0; index < 4; index += 1) responses.push(await responder.respond(request));

    expect(responses).toEqual([
      { status: 500, body: 'failing on purpose' },
      { status: 500, drop: true },
      { status: 200, body: 'ok' },
      { status: 200, body: 'ok' },
    ]);
    expect(responder.answered.map((answered) => answered.answer)).toEqual([
      Answer.refused,
      Answer.dropped,
      Answer.accepted,
      Answer.accepted,
    ]);
  });

  it('fails about the rate asked for over many requests', async () => {
    const responder = flakyResponder(0.3);
    for (let index = 0; index < 2_000; index += 1) await responder.respond(request);
    const failed = responder.answered.filter((answered) => answered.answer !== Answer.accepted).length;
    // 2,000 draws at 30 % fail 600 times give or take 20 (one standard deviation); 400..800 is ten.
    expect(failed).toBeGreaterThan(400);
    expect(failed).toBeLessThan(800);
  });
});
