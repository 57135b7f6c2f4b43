import { isId } from './ids.js';
import {
  Customers,
  Deliveries,
  Events,
  Invoices,
  PayLink,
  Payments,
  PortalSessions,
  Prices,
  ProcessorAccount,
  Products,
  Recoveries,
  Refunds,
  Sandbox,
  WebhookEndpoints,
} from './resources.js';
import { defaultRetryPolicy } from './retry.js';
import { Transport } from './transport.js';

export interface MerchantPaymentsOptions {
  /** The merchant's API key, `merchant_sbx…` (sandbox) or `merchant_prd…` (production). */
  apiKey: string;
  /** The merchant the key belongs to, `mer_…`: filled into every call that names one. */
  merchantId: string;
  /**
   * The stage's URL, e.g. `https://abc123.execute-api.us-east-1.amazonaws.com/sandbox`, or what
   * `npm start` prints locally. Defaults to `MERCHANT_PAYMENTS_SANDBOX_URL` or
   * `MERCHANT_PAYMENTS_PRODUCTION_URL` from the environment, by the key's stage.
   */
  baseUrl?: string;
  /** Milliseconds one attempt may take: 30 s by default. */
  timeoutMs?: number;
  /** Retries of a call that failed in a way worth retrying: 3 by default, 0 for none. */
  maxRetries?: number;
  /** The fetch to send with; the global one by default. */
  fetch?: typeof fetch;
}

/** The environment variable holding each stage's URL, by the stage's key prefix. */
const baseUrlVariables = {
  sbx: 'MERCHANT_PAYMENTS_SANDBOX_URL',
  prd: 'MERCHANT_PAYMENTS_PRODUCTION_URL',
} as const;

/**
 * The Merchant Payments API for one merchant. Every mutating call sends an Idempotency-Key and
 * retries with it; every list walks its pages (client/README.md).
 */
export class MerchantPayments {
  readonly catalog: { readonly products: Products };
  readonly prices: Prices;
  readonly customers: Customers;
  readonly invoices: Invoices;
  readonly payments: Payments;
  readonly refunds: Refunds;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly deliveries: Deliveries;
  readonly events: Events;
  readonly recoveries: Recoveries;
  readonly portalSessions: PortalSessions;
  readonly processorAccount: ProcessorAccount;
  readonly sandbox: Sandbox;
  readonly payLink: PayLink;

  constructor(options: MerchantPaymentsOptions) {
    const stage = stageOf(options.apiKey);
    if (!isId('mer', options.merchantId))
      throw new TypeError('merchantId must be a merchant id, mer_ and 26 characters');
    const transport = new Transport({
      apiKey: options.apiKey,
      merchantId: options.merchantId,
      baseUrl: baseUrlOf(options.baseUrl, stage),
      timeoutMs: options.timeoutMs ?? 30_000,
      retry: { ...defaultRetryPolicy, maxRetries: options.maxRetries ?? defaultRetryPolicy.maxRetries },
      fetch: options.fetch ?? globalThis.fetch,
    });
    this.catalog = { products: new Products(transport) };
    this.prices = new Prices(transport);
    this.customers = new Customers(transport);
    this.invoices = new Invoices(transport);
    this.payments = new Payments(transport);
    this.refunds = new Refunds(transport);
    this.webhookEndpoints = new WebhookEndpoints(transport);
    this.deliveries = new Deliveries(transport);
    this.events = new Events(transport);
    this.recoveries = new Recoveries(transport);
    this.portalSessions = new PortalSessions(transport);
    this.processorAccount = new ProcessorAccount(transport);
    this.sandbox = new Sandbox(transport);
    this.payLink = new PayLink(transport);
  }
}

function stageOf(apiKey: string): keyof typeof baseUrlVariables {
  const prefix = /^merchant_(sbx|prd)[0-9A-Za-z]+_\S+$/.exec(apiKey)?.[1];
  if (prefix !== 'sbx' && prefix !== 'prd')
    throw new TypeError('apiKey must be a merchant API key, merchant_sbx… or merchant_prd…');
  return prefix;
}

function baseUrlOf(given: string | undefined, stage: keyof typeof baseUrlVariables): string {
  const variable = baseUrlVariables[stage];
  const environment = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const url = given ?? environment?.[variable];
  if (url === undefined || url === '')
    throw new TypeError(`baseUrl is missing: pass it, or set ${variable} for a merchant_${stage} key`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`baseUrl ${JSON.stringify(url)} is not a URL: give the stage's https:// URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new TypeError(`baseUrl ${JSON.stringify(url)} is not an http(s) URL`);
  return url.replace(/\/+$/, '');
}
