import { describe, expect, it } from 'vitest';
import { cdkWiringLimit, type FunctionSpan, functionLimit, functionSpans } from './function-spans';

/**
 * Functions over the limit that other work in flight is splitting right now (the store by entity,
 * the pay page's files, the lighter local runtime). Each entry is `file#function`; remove an entry
 * once its branch is merged, and the list with it once it is empty.
 */
const splitByConcurrentWork: readonly string[] = [
  'lib/local/delay-queue.ts#createDelayQueue',
  'lib/local/delivery-pipeline.ts#startDeliveryPipeline',
  'lib/local/dynamodb-local.ts#launch',
  'lib/local/gateway.ts#serve',
  'lib/local/gateway.ts#startLocalGateway',
  'lib/local/runtime.ts#startLocalRuntime',
  'lib/local/stream-poller.ts#startStreamPoller',
  'lib/local/webhook-receiver.ts#startWebhookReceiver',
];

const spans = functionSpans(['functions', 'lib', 'bin']);

function overLimit(span: FunctionSpan): boolean {
  return span.lines > (span.cdkWiring ? cdkWiringLimit : functionLimit);
}

const described = (span: FunctionSpan) =>
  `${span.file}:${span.line} ${span.name}: ${span.lines} lines${span.cdkWiring ? ' (CDK wiring)' : ''}`;

describe('function length', () => {
  it(`keeps every function in functions/, lib/ and bin/ within ${functionLimit} lines, CDK wiring ${cdkWiringLimit}`, () => {
    const long = spans.filter((span) => overLimit(span) && !splitByConcurrentWork.includes(span.key));
    expect(long.map(described)).toEqual([]);
  });

  it('lists in splitByConcurrentWork only functions that are still too long', () => {
    const stillLong = new Set(spans.filter(overLimit).map((span) => span.key));
    expect(splitByConcurrentWork.filter((key) => !stillLong.has(key))).toEqual([]);
  });

  it('finds every kind of function: declarations, methods, constructors, accessors and arrows', () => {
    const kinds = new Set(spans.map((span) => span.kind));
    expect([...kinds].sort()).toEqual(['accessor', 'arrow', 'constructor', 'function', 'method']);
  });
});
