import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { resetFunctionEnvironment } from '../../../functions/config';
import { EventType } from '../../../functions/domain/invoice';
import { checkWebhookUrl } from '../../../functions/domain/webhook-url';
import type { ErrorDetail } from '../../../functions/http/errors';
import { checkInput } from '../../../functions/http/validation';
import { issueMessage, ValidationMessage } from '../../../functions/http/validation-messages';
import type { RouteDefinition } from '../../../functions/route-definition';
import { routes } from '../../../functions/routes';
import { integer } from '../../../functions/validation/integer';
import { keyRecord } from '../../../functions/validation/key-record';
import { list } from '../../../functions/validation/list';
import { rule } from '../../../functions/validation/rule';
import { text } from '../../../functions/validation/text';

const merchantId = 'mer_01h455vb4pex5vsknk084sn02q';
const customerId = 'cust_01h455vb4pex5vsknk084sn02q';
const productId = 'prod_01h455vb4pex5vsknk084sn02q';
const priceId = 'price_01h455vb4pex5vsknk084sn02q';

/** The rule of docs/decisions/validation-messages.md: "X is required." and its kin, or "must …". */
const wordingRule =
  /^(?:[A-Za-z][\w.]* is (?:required|required with [A-Za-z]\w*|not a known field)|must [^\n]+)\.$/;

const card = { type: 'card', number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' };
const adjustment = { kind: 'manual_adjustment', adjustmentType: 'tax', description: 'Tax', amount: 100 };
const invoice = { merchantId, customerId, currency: 'USD', lineItems: [adjustment] };
const sandboxPayment = { merchantId, customerId, amount: 500, currency: 'USD', paymentMethod: card };
const webhookEndpoint = { url: 'https://hooks.example.com/in', eventTypes: ['invoices.InvoicePaid'] };
const eventTypes = Object.values(EventType);

type Row = [label: string, route: RouteDefinition, input: { query?: unknown; body?: unknown }, ErrorDetail[]];

/** Each row goes through the route's own schemas, exactly as the validation middleware parses them. */
const rows: Row[] = [
  // a required field is missing (the field's own name), or the whole body is
  [
    'missing body fields',
    routes.createProduct,
    { body: {} },
    [
      { path: 'merchantId', message: 'merchantId is required.' },
      { path: 'name', message: 'name is required.' },
    ],
  ],
  [
    'a missing body',
    routes.createProduct,
    { body: undefined },
    [{ path: 'body', message: 'body is required.' }],
  ],
  [
    'a missing query parameter',
    routes.listProducts,
    { query: {} },
    [{ path: 'merchantId', message: 'merchantId is required.' }],
  ],
  [
    'a missing enum field',
    routes.createSandboxPayout,
    { body: { merchantId, amount: 100 } },
    [{ path: 'currency', message: 'currency is required.' }],
  ],
  [
    'a missing nested field',
    routes.createSandboxPayment,
    {
      body: {
        ...sandboxPayment,
        paymentMethod: { type: 'card', number: '4242', expMonth: 1, expYear: 2030 },
      },
    },
    [{ path: 'paymentMethod.cvc', message: 'cvc is required.' }],
  ],
  [
    'a missing discriminator',
    routes.createInvoice,
    { body: { ...invoice, lineItems: [{ amount: 1 }] } },
    [{ path: 'lineItems.0.kind', message: 'kind is required.' }],
  ],
  [
    'one of two fields that go together',
    routes.createSandboxPayment,
    { body: { ...sandboxPayment, productId } },
    [{ path: 'priceId', message: 'priceId is required with productId.' }],
  ],
  [
    'the other of two fields that go together',
    routes.createSandboxPayment,
    { body: { ...sandboxPayment, priceId } },
    [{ path: 'productId', message: 'productId is required with priceId.' }],
  ],
  // an unknown field
  [
    'unknown body fields',
    routes.createProduct,
    { body: { merchantId, name: 'Tea', colour: 'green', size: 1 } },
    [
      { path: 'colour', message: 'colour is not a known field.' },
      { path: 'size', message: 'size is not a known field.' },
    ],
  ],
  [
    'an unknown nested field',
    routes.createInvoice,
    { body: { ...invoice, lineItems: [{ ...adjustment, sku: 'x' }] } },
    [{ path: 'lineItems.0.sku', message: 'sku is not a known field.' }],
  ],
  [
    'an unknown query parameter',
    routes.listProducts,
    { query: { merchantId, expand: 'prices' } },
    [{ path: 'expand', message: 'expand is not a known field.' }],
  ],
  [
    'a field in a body that takes none',
    routes.rotateWebhookSecret,
    { body: { force: true } },
    [{ path: 'force', message: 'force is not a known field.' }],
  ],
  // a wrong type
  [
    'a number for a string',
    routes.createProduct,
    { body: { merchantId, name: 42 } },
    [{ path: 'name', message: 'must be a string.' }],
  ],
  [
    'null for a string',
    routes.createProduct,
    { body: { merchantId: null, name: 'Tea' } },
    [{ path: 'merchantId', message: 'must be a string.' }],
  ],
  [
    'a fraction for an integer',
    routes.createPrice,
    { body: { merchantId, unitAmount: 12.5, currency: 'USD' } },
    [{ path: 'unitAmount', message: 'must be an integer.' }],
  ],
  [
    'a string for an integer',
    routes.createPrice,
    { body: { merchantId, unitAmount: '1250', currency: 'USD' } },
    [{ path: 'unitAmount', message: 'must be an integer.' }],
  ],
  [
    'a query value that is no number',
    routes.listProducts,
    { query: { merchantId, limit: 'ten' } },
    [{ path: 'limit', message: 'must be an integer.' }],
  ],
  [
    'a query value that is a fraction',
    routes.listProducts,
    { query: { merchantId, limit: '1.5' } },
    [{ path: 'limit', message: 'must be an integer.' }],
  ],
  [
    'an array for a body',
    routes.createProduct,
    { body: ['Tea'] },
    [{ path: 'body', message: 'must be an object.' }],
  ],
  [
    'an array for a record',
    routes.createInvoice,
    { body: { ...invoice, metadata: ['a'] } },
    [{ path: 'metadata', message: 'must be an object.' }],
  ],
  [
    'a string for an array',
    routes.createInvoice,
    { body: { ...invoice, lineItems: 'tea' } },
    [{ path: 'lineItems', message: 'must be an array.' }],
  ],
  [
    'a string for a nested object',
    routes.createSandboxPayment,
    { body: { ...sandboxPayment, paymentMethod: 'card' } },
    [{ path: 'paymentMethod', message: 'must be an object.' }],
  ],
  [
    'a number for a record value',
    routes.createInvoice,
    { body: { ...invoice, metadata: { order: 7 } } },
    [{ path: 'metadata.order', message: 'must be a string.' }],
  ],
  // too long, too short, too many, too few, too big, too small
  [
    'a name over 200 characters',
    routes.createProduct,
    { body: { merchantId, name: 'x'.repeat(201) } },
    [{ path: 'name', message: 'must be at most 200 characters.' }],
  ],
  [
    'an empty name',
    routes.createProduct,
    { body: { merchantId, name: '' } },
    [{ path: 'name', message: 'must be at least 1 character.' }],
  ],
  [
    'a blank name (trimmed first)',
    routes.createCustomer,
    { body: { merchantId, name: '   ', email: 'ana@example.com' } },
    [{ path: 'name', message: 'must be at least 1 character.' }],
  ],
  [
    'an empty cursor',
    routes.listProducts,
    { query: { merchantId, cursor: '' } },
    [{ path: 'cursor', message: 'must be at least 1 character.' }],
  ],
  [
    'no line items',
    routes.createInvoice,
    { body: { ...invoice, lineItems: [] } },
    [{ path: 'lineItems', message: 'must have at least 1 item.' }],
  ],
  [
    '101 line items',
    routes.createInvoice,
    { body: { ...invoice, lineItems: Array.from({ length: 101 }, () => adjustment) } },
    [{ path: 'lineItems', message: 'must have at most 100 items.' }],
  ],
  [
    'eleven notification emails',
    routes.createInvoice,
    { body: { ...invoice, additionalNotificationEmails: Array.from({ length: 11 }, () => 'a@example.com') } },
    [{ path: 'additionalNotificationEmails', message: 'must have at most 10 items.' }],
  ],
  [
    'a limit of 0',
    routes.listProducts,
    { query: { merchantId, limit: '0' } },
    [{ path: 'limit', message: 'must be at least 1.' }],
  ],
  [
    'a limit of 101',
    routes.listProducts,
    { query: { merchantId, limit: '101' } },
    [{ path: 'limit', message: 'must be at most 100.' }],
  ],
  [
    'a negative amount',
    routes.createPrice,
    { body: { merchantId, unitAmount: -1, currency: 'USD' } },
    [{ path: 'unitAmount', message: 'must be at least 0.' }],
  ],
  [
    'an amount past the safe integer range, listed once',
    routes.createPrice,
    { body: { merchantId, unitAmount: 2 ** 60, currency: 'USD' } },
    [{ path: 'unitAmount', message: 'must be at most 9007199254740991.' }],
  ],
  [
    'a quantity of 0',
    routes.createInvoice,
    {
      body: {
        ...invoice,
        lineItems: [{ kind: 'product_charge', productId, priceId, quantity: 0 }],
      },
    },
    [{ path: 'lineItems.0.quantity', message: 'must be at least 1.' }],
  ],
  ...['constructor', '__proto__', 'prototype', 'order id', 'ordér', ''].map(
    (key): Row => [
      `the metadata key ${JSON.stringify(key)}`,
      routes.createInvoice,
      // Parsed as a request body is, so "__proto__" is an own key as it arrives.
      { body: { ...invoice, metadata: JSON.parse(`{${JSON.stringify(key)}: "v"}`) } },
      [
        {
          path: `metadata.${key}`,
          message:
            key === ''
              ? 'must be a key of at least 1 character.'
              : 'must be a key of letters, digits and _ . : - only, and not __proto__, constructor or prototype.',
        },
      ],
    ],
  ),
  [
    'a name with a lone UTF-16 surrogate, as JSON can carry it',
    routes.createProduct,
    { body: { merchantId, name: JSON.parse('"tea \\ud800"') } },
    [{ path: 'name', message: 'must be well-formed Unicode text, without a lone UTF-16 surrogate.' }],
  ],
  [
    'a metadata key over 40 characters',
    routes.createInvoice,
    { body: { ...invoice, metadata: { ['k'.repeat(41)]: 'v' } } },
    [{ path: `metadata.${'k'.repeat(41)}`, message: 'must be a key of at most 40 characters.' }],
  ],
  [
    'metadata with 51 keys',
    routes.createInvoice,
    {
      body: {
        ...invoice,
        metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])),
      },
    },
    [{ path: 'metadata', message: 'must have at most 50 keys.' }],
  ],
  // not one of a set
  [
    'an unknown status',
    routes.setProductStatus,
    { body: { merchantId, status: 'archived' } },
    [{ path: 'status', message: 'must be one of: active, inactive.' }],
  ],
  [
    'an unknown currency',
    routes.createPrice,
    { body: { merchantId, unitAmount: 100, currency: 'EUR' } },
    [{ path: 'currency', message: 'must be one of: USD, CAD.' }],
  ],
  [
    'an unknown line kind',
    routes.createInvoice,
    { body: { ...invoice, lineItems: [{ kind: 'discount' }] } },
    [{ path: 'lineItems.0.kind', message: 'must be one of: product_charge, manual_adjustment.' }],
  ],
  [
    'an unknown payment method type',
    routes.payInvoice,
    { body: { slug: 's', amount: 100, paymentMethod: { type: 'cash' } } },
    [{ path: 'paymentMethod.type', message: 'must be one of: card, bank_account.' }],
  ],
  [
    'an unknown event type',
    routes.createWebhookEndpoint,
    { body: { ...webhookEndpoint, eventTypes: ['invoices.Lost'] } },
    [{ path: 'eventTypes.0', message: `must be one of: ${eventTypes.join(', ')}.` }],
  ],
  [
    'a deleted status on update',
    routes.updateWebhookEndpoint,
    { body: { status: 'deleted' } },
    [{ path: 'status', message: 'must be one of: active, disabled.' }],
  ],
  // a format
  [
    'a malformed id',
    routes.createProduct,
    { body: { merchantId: 'merchant-1', name: 'Tea' } },
    [{ path: 'merchantId', message: 'must be a mer_ TypeID.' }],
  ],
  [
    'an id of another prefix',
    routes.createInvoice,
    { body: { ...invoice, customerId: merchantId } },
    [{ path: 'customerId', message: 'must be a cust_ TypeID.' }],
  ],
  [
    'a malformed email',
    routes.createCustomer,
    { body: { merchantId, name: 'Ana', email: 'ana@' } },
    [{ path: 'email', message: 'must be an email address.' }],
  ],
  [
    'a malformed email in a list',
    routes.createInvoice,
    { body: { ...invoice, additionalNotificationEmails: ['a@example.com', 'b..c@example.com'] } },
    [{ path: 'additionalNotificationEmails.1', message: 'must be an email address.' }],
  ],
  [
    'a date without a time',
    routes.createInvoice,
    { body: { ...invoice, dueDate: '2026-12-01' } },
    [{ path: 'dueDate', message: 'must be an ISO 8601 UTC date-time ending in Z.' }],
  ],
  [
    'a date-time with an offset',
    routes.listPayments,
    { query: { merchantId, createdFrom: '2026-12-01T00:00:00+01:00' } },
    [{ path: 'createdFrom', message: 'must be an ISO 8601 UTC date-time ending in Z.' }],
  ],
  [
    'an http webhook URL',
    routes.createWebhookEndpoint,
    { body: { ...webhookEndpoint, url: 'http://hooks.example.com/in' } },
    [{ path: 'url', message: 'must use https.' }],
  ],
  [
    'a webhook URL on a private address',
    routes.createWebhookEndpoint,
    { body: { ...webhookEndpoint, url: 'https://10.0.0.7/in' } },
    [{ path: 'url', message: 'must name a public host; this address is private.' }],
  ],
  [
    'a webhook URL over 2048 characters, listed once',
    routes.createWebhookEndpoint,
    { body: { ...webhookEndpoint, url: `https://hooks.example.com/${'a'.repeat(2048)}` } },
    [{ path: 'url', message: 'must be at most 2048 characters.' }],
  ],
  // rules across values
  [
    'a repeated payment method',
    routes.createInvoice,
    { body: { ...invoice, acceptedPaymentMethods: ['card', 'card'] } },
    [{ path: 'acceptedPaymentMethods', message: 'must not repeat a value.' }],
  ],
  [
    'a repeated event type',
    routes.createWebhookEndpoint,
    { body: { ...webhookEndpoint, eventTypes: ['invoices.InvoicePaid', 'invoices.InvoicePaid'] } },
    [{ path: 'eventTypes', message: 'must not repeat a value.' }],
  ],
  [
    'createdFrom after createdTo',
    routes.listPayments,
    { query: { merchantId, createdFrom: '2026-12-02T00:00:00Z', createdTo: '2026-12-01T00:00:00Z' } },
    [{ path: 'createdFrom', message: 'must not be after createdTo.' }],
  ],
  [
    'an update that changes nothing',
    routes.updateWebhookEndpoint,
    { body: {} },
    [{ path: 'body', message: 'must name at least one field to change.' }],
  ],
  // query and body problems together
  [
    'every problem of a body at once',
    routes.createProduct,
    { body: { name: 7, a: 1 } },
    [
      { path: 'merchantId', message: 'merchantId is required.' },
      { path: 'name', message: 'must be a string.' },
      { path: 'a', message: 'a is not a known field.' },
    ],
  ],
];

beforeAll(() => {
  // Webhook URL rules read the function environment (the loopback switch) while parsing.
  vi.stubEnv('TABLE_NAME', 'unused');
  vi.stubEnv('STAGE', 'sandbox');
  resetFunctionEnvironment();
});
afterAll(() => {
  vi.unstubAllEnvs();
  resetFunctionEnvironment();
});

describe('checkInput', () => {
  it.each(rows)('words %s in our own terms', (_label, route, input, expected) => {
    const checked = checkInput(route, input.query ?? {}, input.body);
    expect(checked).toEqual({ ok: false, details: expected });
  });

  it('words every message of the table by one rule', () => {
    const messages = rows.flatMap(([, , , details]) => details.map((detail) => detail.message));
    expect(messages.filter((message) => !wordingRule.test(message))).toEqual([]);
  });

  it('words every message a schema, a handler or the webhook URL check words itself by the same rule', () => {
    const own: Record<keyof typeof ValidationMessage, string> = {
      required: ValidationMessage.required('merchantId'),
      requiredWith: ValidationMessage.requiredWith('priceId', 'productId'),
      unknownField: ValidationMessage.unknownField('colour'),
      givenOnce: ValidationMessage.givenOnce,
      sandboxOnly: ValidationMessage.sandboxOnly,
      oneOf: ValidationMessage.oneOf(['active', 'inactive']),
      typeId: ValidationMessage.typeId('mer'),
      email: ValidationMessage.email,
      dateTime: ValidationMessage.dateTime,
      noRepeats: ValidationMessage.noRepeats,
      atMostKeys: ValidationMessage.atMostKeys(50),
      notAfter: ValidationMessage.notAfter('createdTo'),
      someField: ValidationMessage.someField,
      existing: ValidationMessage.existing('customer'),
      activeProduct: ValidationMessage.activeProduct,
      priceOfProduct: ValidationMessage.priceOfProduct,
      priceCurrency: ValidationMessage.priceCurrency('USD'),
      cursor: ValidationMessage.cursor,
      metadataKey: ValidationMessage.metadataKey,
      wellFormed: ValidationMessage.wellFormed,
    };
    const refusedUrls = [
      'http://hooks.example.com/',
      'https://hooks.example.com/a b',
      'https://',
      'https://user@hooks.example.com/',
      'https://hooks.example.com/#top',
      'https://hooks.example.com:0/',
      'https://127.1/',
      'https://127.0.0.1/',
      'https://hooks.example.com./',
      'https://localhost/',
      'https://printer.local/',
      'https://intranet/',
      `https://hooks.example.com/${'a'.repeat(2048)}`,
    ];
    const reasons = refusedUrls.map((url) => {
      const check = checkWebhookUrl(url, { allowLoopback: false });
      return check.ok ? `accepted ${url}` : check.reason;
    });
    const messages = [...Object.values(own), ...reasons];
    expect(new Set(reasons).size).toBe(refusedUrls.length);
    expect(messages.filter((message) => !wordingRule.test(message))).toEqual([]);
  });

  it('passes a valid request through, with its defaults', () => {
    const checked = checkInput(routes.listProducts, { merchantId }, undefined);
    expect(checked).toEqual({ ok: true, query: { merchantId, limit: 20 }, body: undefined });
  });
});

describe('issueMessage', () => {
  const messagesOf = (schema: z.ZodMiniType, value: unknown) => {
    const parsed = z.safeParse(schema, value, { error: (issue) => issueMessage(issue, 'body') });
    return parsed.success ? undefined : parsed.error.issues.map((issue) => issue.message);
  };

  it.each<[string, z.ZodMiniType, unknown, string]>([
    ['a boolean', z.strictObject({ paused: z.boolean() }), { paused: 'yes' }, 'must be true or false.'],
    ['an integer', z.strictObject({ rate: integer() }), { rate: 1.5 }, 'must be an integer.'],
    ['an integer past the safe range', integer(), 2 ** 60, 'must be at most 9007199254740991.'],
    ['one item at most', list(text(), { max: 1 }), ['a', 'b'], 'must have at most 1 item.'],
    ['a single allowed value', z.literal('card'), 'cash', 'must be card.'],
    ['a pattern', text({ pattern: /^[a-z]+$/ }), 'A', 'must match the pattern /^[a-z]+$/.'],
    ['an unknown key on its own', z.strictObject({}), { extra: 1 }, 'extra is not a known field.'],
    ['a whole value that is missing', z.strictObject({}), undefined, 'body is required.'],
    [
      'a key of the wrong form',
      keyRecord(text({ pattern: /^k/ }), text()),
      { x: 'v' },
      'must be a valid key.',
    ],
  ])('words %s', (_label, schema, value, expected) => {
    expect(messagesOf(schema, value)).toEqual([expected]);
  });

  it('leaves a message the schema words itself alone', () => {
    const schema = rule(text(), () => 'must be a tea.');
    expect(messagesOf(schema, 'coffee')).toEqual(['must be a tea.']);
  });
});
