import { expect } from 'vitest';
import { type ApiResult, detailPaths, dynamoDbCommandsDuring, type TestRuntime } from './local-runtime';

/** A request whose writes are checked: its answer, and the items of `entityTypes` it leaves. */
export interface CheckedWrites {
  /** The runtime table's items of the given entity types. */
  items(): Promise<Record<string, unknown>[]>;
  /** Sends `request`; expects a 400 validation_error whose details name exactly `paths`, and no new item. */
  expectInvalid(request: () => Promise<ApiResult>, paths: readonly string[]): Promise<void>;
  /** Sends `request`; expects `status` with the error `code`, and no new item. */
  expectRefused(request: () => Promise<ApiResult>, status: number, code: string): Promise<void>;
  /** Sends `request`; expects the replay of `first`: a 201 marked Idempotent-Replayed with its body, and no new item. */
  expectReplayed(request: () => Promise<ApiResult>, first: ApiResult): Promise<void>;
  /**
   * Sends `warm` (a read that warms the authorizer cache, so only the handler's own calls are
   * counted), then `request`; expects a 201 whose one DynamoDB round trip is its transaction.
   */
  expectOneTransaction(warm: () => Promise<ApiResult>, request: () => Promise<ApiResult>): Promise<void>;
  /** Expects exactly one item with `created`'s `idField`, an `entityType` item holding every field of it. */
  expectStoredOnce(entityType: string, idField: string, created: Record<string, unknown>): Promise<void>;
}

/** Checks on what a route writes: the items of `entityTypes` (the resource and its idempotency record). */
export function writesOf(t: () => TestRuntime, entityTypes: readonly string[]): CheckedWrites {
  const items = async () =>
    (await t().scanTable()).filter((item) => entityTypes.includes(String(item.entityType)));
  const expectNothingWritten = async (request: () => Promise<ApiResult>): Promise<ApiResult> => {
    const before = await items();
    const result = await request();
    expect(await items()).toHaveLength(before.length);
    return result;
  };
  return {
    items,
    expectInvalid: async (request, paths) => {
      const result = await expectNothingWritten(request);
      expect(result.status).toBe(400);
      expect(result.body.error.code).toBe('validation_error');
      expect(detailPaths(result.body)).toEqual([...paths].sort());
    },
    expectRefused: async (request, status, code) => {
      const result = await expectNothingWritten(request);
      expect(result.status).toBe(status);
      expect(result.body.error.code).toBe(code);
    },
    expectReplayed: async (request, first) => {
      const result = await expectNothingWritten(request);
      expect(result.status).toBe(201);
      expect(result.headers.get('idempotent-replayed')).toBe('true');
      expect(result.body).toEqual(first.body);
    },
    expectOneTransaction: async (warm, request) => {
      await warm();
      const commands = await dynamoDbCommandsDuring(async () => {
        expect((await request()).status).toBe(201);
      });
      expect(commands).toEqual(['TransactWriteItemsCommand']);
    },
    expectStoredOnce: async (entityType, idField, created) => {
      const stored = (await t().scanTable()).filter((item) => item[idField] === created[idField]);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ entityType, ...created });
    },
  };
}
