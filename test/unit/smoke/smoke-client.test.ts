import { describe, expect, it } from 'vitest';
import { describeResponse } from '../../../tools/smoke/smoke-client';

const invalid = (details: unknown) => ({
  status: 400,
  body: {
    error: { code: 'validation_error', message: 'The request is not valid.', requestId: 'r', details },
  },
});

describe('describeResponse', () => {
  it("names each of an error's details, path and message", () => {
    expect(
      describeResponse(
        invalid([
          { path: 'merchantId', message: 'must be a mer_ TypeID.' },
          { path: 'lineItems.0.quantity', message: 'must be at least 1.' },
        ]),
      ),
    ).toBe(
      '400 validation_error (The request is not valid. merchantId: must be a mer_ TypeID.; lineItems.0.quantity: must be at least 1.)',
    );
  });

  it('lists the first five details and counts the rest', () => {
    const details = Array.from({ length: 8 }, (_, index) => ({
      path: `k${index}`,
      message: 'is not a known field.',
    }));
    expect(describeResponse(invalid(details))).toBe(
      '400 validation_error (The request is not valid. k0: is not a known field.; k1: is not a known field.; ' +
        'k2: is not a known field.; k3: is not a known field.; k4: is not a known field.; and 3 more)',
    );
  });

  it('shows an error without details, and skips details that are not path and message strings', () => {
    expect(describeResponse(invalid(undefined))).toBe('400 validation_error (The request is not valid.)');
    expect(
      describeResponse(
        invalid([{ path: 'a', message: 7 }, 'x', { path: 'b', message: 'must be a string.' }]),
      ),
    ).toBe('400 validation_error (The request is not valid. b: must be a string.)');
    expect(describeResponse({ status: 502, body: undefined })).toBe('502');
  });

  it('never prints the rest of a body: no value beside the error shape reaches the line', () => {
    const body = {
      error: { code: 'invalid_state', message: 'No.', details: [] },
      signingSecret: 'whsec_c2VjcmV0',
      invoiceUrlSlug: 'slug-never-shown',
    };
    const line = describeResponse({ status: 409, body });
    expect(line).toBe('409 invalid_state (No.)');
  });
});
