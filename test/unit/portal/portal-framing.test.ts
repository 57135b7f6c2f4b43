import { describe, expect, it } from 'vitest';
import {
  frameAncestorsOf,
  portalBasePolicy,
  portalFramingHeaders,
} from '../../../functions/domain/portal-framing';

const now = new Date('2025-03-04T12:00:00.000Z');
const live = {
  allowedOrigins: ['https://app.example.com', 'https://admin.example.com:8443'],
  expiresAt: '2025-03-04T13:00:00.000Z',
};

describe('frameAncestorsOf', () => {
  it('allows the origins of a live session', () => {
    expect(frameAncestorsOf(live, now)).toBe('https://app.example.com https://admin.example.com:8443');
  });

  it.each([
    ['no session', undefined],
    ['a revoked session', { ...live, revokedAt: '2025-03-04T11:00:00.000Z' }],
    ['an expired session', { ...live, expiresAt: '2025-03-04T12:00:00.000Z' }],
    ['a session with an unreadable expiry', { ...live, expiresAt: 'soon' }],
    ['a session allowing no origin', { ...live, allowedOrigins: [] }],
  ])('allows nobody for %s', (_case, session) => {
    expect(frameAncestorsOf(session, now)).toBe("'none'");
  });

  it('leaves out anything that is not a bare origin, so nothing can add a source or a directive', () => {
    const session = {
      ...live,
      allowedOrigins: [
        "https://a.example.com; script-src 'unsafe-inline'",
        'https://b.example.com/path',
        '*',
        'https://c.example.com',
      ],
    };
    expect(frameAncestorsOf(session, now)).toBe('https://c.example.com');
  });
});

describe('portalFramingHeaders', () => {
  it('sends X-Frame-Options DENY only when nobody may frame the page', () => {
    expect(portalFramingHeaders(undefined, now)).toEqual({
      'Content-Security-Policy': [...portalBasePolicy, "frame-ancestors 'none'"].join('; '),
      'X-Frame-Options': 'DENY',
    });
    expect(portalFramingHeaders(live, now)).toEqual({
      'Content-Security-Policy': [
        ...portalBasePolicy,
        'frame-ancestors https://app.example.com https://admin.example.com:8443',
      ].join('; '),
    });
  });

  it('is the strict policy the portal was built for', () => {
    expect(portalBasePolicy.join('; ')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
        "base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'; trusted-types 'none'",
    );
  });
});
