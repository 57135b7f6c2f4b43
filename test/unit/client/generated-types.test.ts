import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../../../client/scripts/generate-types';

describe('client/src/generated', () => {
  it('is what docs/openapi.json generates today (npm run generate -w client)', async () => {
    const files = await generatedFiles();
    expect(files.map(({ name }) => name)).toEqual([
      'client/src/generated/openapi.ts',
      'client/src/generated/routes.ts',
    ]);
    for (const { url, name, text } of files) expect(readFileSync(url, 'utf8'), name).toBe(text);
  });

  it('brands every TypeID of the document, and leaves plain only the ids that are not TypeIDs', async () => {
    const [types] = await generatedFiles();
    const text = types?.text ?? '';
    expect(text).toContain('customerId: Id<"cust">;');
    expect(text).toContain('id: Id<"inv">;');
    // Stripe's ids (an event's, an account's, a payment method's, a bank account's), the processor's
    // and the mail service's references, the request id, and the portal page's path, which takes any
    // text and says when it is no link.
    const plain = Array.from(text.matchAll(/^\s+(\w*Id)\??: string(?: \| null)?;$/gm), ([, name]) => name);
    expect([...new Set(plain)].sort()).toEqual([
      'eventId',
      'paymentInstrumentId',
      'payoutAccountId',
      'portalSessionId',
      'processorAccountId',
      'processorReferenceId',
      'providerMessageId',
      'requestId',
    ]);
  });
});
