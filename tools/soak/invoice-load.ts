import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';

/** A merchant the load acts as: its key and a valid create body naming its own customer and price. */
export interface LoadMerchant {
  readonly merchantId: string;
  readonly apiKey: string;
  readonly createBody: Readonly<Record<string, unknown>>;
}

/** A create the API answered 201: the invoice must be readable from then on. */
export interface AcknowledgedCreate {
  readonly merchantId: string;
  readonly invoiceId: string;
  readonly invoiceNumber: string;
}

export interface LoadFigures {
  /** Requests autocannon sent, answered or not. */
  readonly sent: number;
  readonly byClass: { readonly '2xx': number; readonly '4xx': number; readonly '5xx': number; other: number };
  /** Connection errors and timeouts. */
  readonly errors: number;
  readonly creates: readonly AcknowledgedCreate[];
}

export interface InvoiceLoadOptions {
  readonly baseUrl: string;
  readonly merchants: readonly LoadMerchant[];
  readonly connections: number;
  readonly durationSeconds: number;
  /** Hands over a stop that ends the load early (Ctrl-C). */
  readonly onStart?: (stop: () => void) => void;
}

// API Gateway gives up on an integration after 29 s; the client waits a little longer.
const responseTimeoutSeconds = 30;

/**
 * Runs autocannon over a mix of invoice creates, gets and lists, one of each in turn on every
 * connection. Creates take turns over the merchants with a fresh Idempotency-Key each; gets read a
 * create acknowledged earlier, so a create that is not readable shows up during the load too.
 */
export async function invoiceLoad(options: InvoiceLoadOptions): Promise<LoadFigures> {
  const { merchants } = options;
  const creates: AcknowledgedCreate[] = [];
  // Creates and lists keep turns of their own: one shared count would send every create of a
  // connection's create-get-list cycle to the same merchant.
  const turns = { create: 0, list: 0 };
  const nextMerchant = (of: keyof typeof turns) => merchants[turns[of]++ % merchants.length] as LoadMerchant;
  const merchantOf = (merchantId: string) =>
    merchants.find((merchant) => merchant.merchantId === merchantId) as LoadMerchant;
  const headersOf = (merchant: LoadMerchant): Record<string, string> => ({
    Authorization: `Bearer ${merchant.apiKey}`,
    'Content-Type': 'application/json',
  });
  const read = (request: autocannon.Request, path: string, merchant: LoadMerchant) => ({
    ...request,
    method: 'GET',
    path,
    headers: headersOf(merchant),
    body: '',
  });
  const list = (request: autocannon.Request) => {
    const merchant = nextMerchant('list');
    return read(request, `/invoices?merchantId=${merchant.merchantId}&limit=20`, merchant);
  };

  const instance = autocannon({
    url: options.baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: responseTimeoutSeconds,
    requests: [
      {
        setupRequest: (request) => {
          const merchant = nextMerchant('create');
          return {
            ...request,
            method: 'POST',
            path: '/invoices',
            headers: { ...headersOf(merchant), 'Idempotency-Key': `soak-${randomUUID()}` },
            body: JSON.stringify(merchant.createBody),
          };
        },
        onResponse: (status, body) => {
          if (status !== 201) return;
          const invoice = JSON.parse(body) as AcknowledgedCreate;
          creates.push({
            merchantId: invoice.merchantId,
            invoiceId: invoice.invoiceId,
            invoiceNumber: invoice.invoiceNumber,
          });
        },
      },
      {
        setupRequest: (request) => {
          const created = creates[Math.floor(Math.random() * creates.length)];
          if (created === undefined) return list(request);
          const merchant = merchantOf(created.merchantId);
          return read(request, `/invoices/${created.invoiceId}?merchantId=${merchant.merchantId}`, merchant);
        },
      },
      { setupRequest: list },
    ],
  });
  options.onStart?.(() => instance.stop());
  const result = await instance;
  return {
    sent: result.requests.sent,
    byClass: {
      '2xx': result['2xx'],
      '4xx': result['4xx'],
      '5xx': result['5xx'],
      other: result['1xx'] + result['3xx'],
    },
    errors: result.errors,
    creates,
  };
}
