import { describe, expect, it } from 'vitest';
import { cdkWiringLimit, type FunctionSpan, functionLimit, functionSpans } from './function-spans';

const spans = functionSpans(['functions', 'lib', 'tools', 'bin']);

function overLimit(span: FunctionSpan): boolean {
  return span.lines > (span.cdkWiring ? cdkWiringLimit : functionLimit);
}

const described = (span: FunctionSpan) =>
  `${span.file}:${span.line} ${span.name}: ${span.lines} lines${span.cdkWiring ? ' (CDK wiring)' : ''}`;

describe('function length', () => {
  it(`keeps every function in functions/, lib/, tools/ and bin/ within ${functionLimit} lines, CDK wiring ${cdkWiringLimit}`, () => {
    const long = spans.filter((span) => overLimit(span));
    expect(long.map(described)).toEqual([]);
  });

  it('finds every kind of function: declarations, methods, constructors, accessors and arrows', () => {
    const kinds = new Set(spans.map((span) => span.kind));
    expect([...kinds].sort()).toEqual(['accessor', 'arrow', 'constructor', 'function', 'method']);
  });
});
