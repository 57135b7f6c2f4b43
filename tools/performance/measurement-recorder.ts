import type { ReceivedRequest } from '../../test/support/https-receiver';
import type { ApiClient, ApiResult } from '../../test/support/local-runtime';
import type { RecordedStripeRequest } from '../../test/support/stripe-recording-server';
import type { DynamoDbLocalTarget } from '../local/dynamodb-local';
import type { Measurements } from './capacity-model';
import { capacityDuring } from './consumed-capacity';
import { type OperationUnits, operationUnits } from './performance-models';

/** What the measured operations consumed and sent, recorded while they run. */
export interface MeasurementRecorder {
  readonly measurements: Measurements;
  /** Runs `act` as `operation`, its DynamoDB units measured. */
  measure<T>(operation: string, act: () => Promise<T>): Promise<T>;
  /** `client`, with the bytes of each answer to a measured operation added to what it sent. */
  recorded(client: ApiClient): ApiClient;
  /** Adds `bytes` to what `operation` sent to the internet. */
  addSent(operation: string, bytes: number): void;
}

/** A recorder of the operations whose commands go to the table of `dynamodb`. */
export function measurementRecorder(dynamodb: DynamoDbLocalTarget): MeasurementRecorder {
  const measured = new Map<string, OperationUnits>();
  const sent = new Map<string, number>();
  /** The operation being measured, whose answers `recorded` counts. */
  let sending: string | undefined;
  const addSent = (operation: string, bytes: number) => {
    sent.set(operation, (sent.get(operation) ?? 0) + bytes);
  };
  return {
    measurements: { measured, sent },
    async measure<T>(operation: string, act: () => Promise<T>): Promise<T> {
      let result: T | undefined;
      sending = operation;
      const commands = await capacityDuring(dynamodb, async () => {
        result = await act();
      }).finally(() => {
        sending = undefined;
      });
      measured.set(operation, operationUnits(operation, commands));
      return result as T;
    },
    recorded:
      (client) =>
      async (...args) => {
        const result = await client(...args);
        if (sending !== undefined) addSent(sending, answerBytes(result));
        return result;
      },
    addSent,
  };
}

/** Headers Node's server adds to a local answer: API Gateway sends its own (`gatewayResponseBytes`). */
const localServerHeaders = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
]);

/** An answer's bytes besides the gateway's status line and headers: the function's headers and body. */
function answerBytes(result: ApiResult): number {
  if (result.bodyBytes === undefined)
    throw new Error('an answer without its byte count: call through apiClient');
  let bytes = result.bodyBytes;
  result.headers.forEach((value, name) => {
    if (!localServerHeaders.has(name)) bytes += Buffer.byteLength(`${name}: ${value}\r\n`);
  });
  return bytes;
}

/**
 * A request's bytes as sent: request line, headers and body. The receivers listen on a port of
 * this run, so `Host` is counted without the port, as a merchant's host name (or Stripe's) would be.
 */
function bytesOfRequest(
  method: string,
  path: string,
  headers: Readonly<Record<string, unknown>>,
  body: Buffer | string,
): number {
  const lines = Object.entries(headers).map(
    ([name, value]) => `${name}: ${name === 'host' ? String(value).replace(/:\d+$/, '') : String(value)}\r\n`,
  );
  return Buffer.byteLength(`${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n`) + Buffer.byteLength(body);
}

/** A webhook request as the receiver got it, in bytes. */
export function requestBytes(request: ReceivedRequest): number {
  return bytesOfRequest(request.method, request.path, request.headers, request.rawBody);
}

/** A request the service sent to Stripe's API, counted as `requestBytes` counts a webhook request. */
export function stripeRequestBytes(request: RecordedStripeRequest): number {
  return bytesOfRequest(request.method, request.path, request.headers, request.rawBody);
}
