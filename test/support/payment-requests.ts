import { type ApiClient, type ApiResult, newKey } from './local-runtime';

/** Card and bank details of docs/sandbox-testing.md. */
export const testCard = (number: string) => ({
  type: 'card',
  number,
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 3,
  cvc: number.startsWith('37') ? '1234' : '123',
});
export const testBankAccount = (accountNumber: string) => ({
  type: 'bank_account',
  routingNumber: '110000000',
  accountNumber,
});

export const cards = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;
export const bankAccounts = {
  succeeds: '000123456789',
  closed: '000111111113',
  returnedLater: '000222222227',
};

export function sandboxPayment(
  api: ApiClient,
  body: Record<string, unknown>,
  idempotencyKey = newKey(),
): Promise<ApiResult> {
  return api('POST', '/sandbox/payments', { body, idempotencyKey });
}

/** The outbox events of one type whose payload has `field` = `value`, oldest first. */
export function eventsWhere(
  items: Record<string, unknown>[],
  eventType: string,
  field: string,
  value: unknown,
): any[] {
  return items
    .filter(
      (item: any) =>
        item.entityType === 'Event' && item.eventType === eventType && item.payload?.[field] === value,
    )
    .sort((a: any, b: any) => String(a.eventId).localeCompare(String(b.eventId)));
}
