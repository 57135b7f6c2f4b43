import * as z from 'zod/mini';
import { $constructor } from 'zod/v4/core';

type RecordInternals = z.core.$ZodRecordInternals<z.core.$ZodRecordKey, z.core.SomeType>;
type Payload = z.core.ParsePayload;
type Issue = z.core.$ZodRawIssue;

/**
 * zod's record, except for a `"__proto__"` key: JSON.parse makes it an own key, which zod's record
 * skips without a word. Here it is checked like any other key, in its place among them: refused
 * by a key schema that refuses it (metadata keys), else kept as the own property it was.
 */
const KeyRecord: z.core.$constructor<z.ZodMiniRecord> = $constructor('KeyRecord', (inst, def) => {
  const base: z.core.$constructor<z.ZodMiniRecord> = z.ZodMiniRecord;
  base.init(inst, def);
  const parse = inst._zod.parse;
  inst._zod.parse = (payload, ctx) => {
    const input = payload.value;
    const protoKey =
      typeof input === 'object' && input !== null
        ? Object.getOwnPropertyDescriptor(input, '__proto__')
        : undefined;
    if (protoKey === undefined) return parse(payload, ctx);
    const from = payload.issues.length;
    parse(payload, ctx);
    const issues = protoKeyIssues(inst._zod.def, payload, protoKey.value, ctx);
    const keys = Object.keys(input as object);
    const later = new Set(keys.slice(keys.indexOf('__proto__') + 1));
    const at = payload.issues.findIndex(
      (issue, index) => index >= from && later.has(issue.path?.[0] as string),
    );
    payload.issues.splice(at === -1 ? payload.issues.length : at, 0, ...issues);
    payload.value = inKeyOrder(payload.value as object, keys);
    return payload;
  };
});

/** The problems of the `"__proto__"` entry, its value defined on the result when the key is taken. */
function protoKeyIssues(
  def: RecordInternals['def'],
  payload: Payload,
  value: unknown,
  ctx: z.core.ParseContextInternal,
): Issue[] {
  const key = '__proto__';
  const keyResult = def.keyType._zod.run({ value: key, issues: [] }, ctx) as Payload;
  if (keyResult.issues.length > 0) {
    return [
      {
        code: 'invalid_key',
        origin: 'record',
        issues: keyResult.issues.map((issue) => keyProblem(issue, ctx)),
        input: key,
        path: [key],
      },
    ];
  }
  const result = def.valueType._zod.run({ value, issues: [] }, ctx) as Payload;
  ownProperty(payload.value as object, key, result.value);
  return result.issues.map((issue) => ({ ...issue, path: [key, ...(issue.path ?? [])] }));
}

/** A key's problem as zod's record lists it under `invalid_key`: worded, without its internals. */
function keyProblem(issue: Issue, ctx: z.core.ParseContextInternal): z.core.$ZodIssue {
  const { inst: _inst, input: _input, continue: _continue, ...problem } = issue;
  const worded = problem.message ?? ctx.error?.(issue as never);
  const message = typeof worded === 'string' ? worded : (worded?.message ?? 'Invalid input');
  return { ...problem, path: problem.path ?? [], message } as z.core.$ZodIssue;
}

/** The entries of `record` in the order of `keys`, as the input had them. */
function inKeyOrder(record: object, keys: readonly string[]): object {
  const ordered = {};
  for (const key of keys) {
    const entry = Object.getOwnPropertyDescriptor(record, key);
    if (entry !== undefined) ownProperty(ordered, key, entry.value);
  }
  return ordered;
}

/** Defines `key` as an own property: assigning "__proto__" would replace the prototype instead. */
function ownProperty(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** An object of any keys matching `keys`, each value matching `values`. */
export function keyRecord<K extends z.core.$ZodRecordKey, V extends z.core.SomeType>(
  keys: K,
  values: V,
): z.ZodMiniRecord<K, V> {
  return new KeyRecord({
    type: 'record',
    keyType: keys,
    valueType: values as unknown as z.core.$ZodType,
  }) as unknown as z.ZodMiniRecord<K, V>;
}
