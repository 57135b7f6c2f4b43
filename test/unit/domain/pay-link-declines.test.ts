import { describe, expect, it } from 'vitest';
import {
  declineLimit,
  declinesAfterChange,
  noDeclines,
  PayLinkDeclineLimit,
  secondsUntil,
  withDecline,
} from '../../../functions/domain/pay-link-declines';

const { perSlug, perInvoice, windowMs } = PayLinkDeclineLimit;
const now = new Date('2026-03-01T12:00:00.000Z');
const minutesAgo = (minutes: number) => now.getTime() - minutes * 60_000;
/** `count` declines a minute apart, the newest `newest` minutes ago. */
const declinesFrom = (newest: number, count: number) =>
  Array.from({ length: count }, (_, index) => minutesAgo(newest + index));

describe('declineLimit', () => {
  it('takes payments while both counts have room', () => {
    expect(declineLimit(noDeclines, now)).toBeUndefined();
    const slug = declinesFrom(1, perSlug - 1);
    expect(declineLimit({ slug, invoice: declinesFrom(1, perInvoice - 1) }, now)).toBeUndefined();
  });

  it('refuses the link until the oldest of its counted declines is a window old', () => {
    const slug = [1, 2, 3, 4, 40].map(minutesAgo);
    expect(declineLimit({ slug, invoice: slug }, now)).toEqual({
      until: new Date(minutesAgo(40) + windowMs),
      scope: 'slug',
    });
  });

  it('takes payments again the moment the oldest counted decline is exactly a window old', () => {
    const slug = [1, 2, 3, 4].map(minutesAgo).concat(now.getTime() - windowMs);
    expect(declineLimit({ slug, invoice: slug }, now)).toBeUndefined();
    expect(declineLimit({ slug, invoice: slug }, new Date(now.getTime() - 1))).toBeDefined();
  });

  it('refuses every link of an invoice past its ceiling, whatever the link’s own count', () => {
    const invoice = declinesFrom(1, perInvoice);
    expect(declineLimit({ slug: [], invoice }, now)).toEqual({
      until: new Date(minutesAgo(perInvoice) + windowMs),
      scope: 'invoice',
    });
  });

  it('names the invoice when both refuse, until the later of the two', () => {
    const slug = declinesFrom(1, perSlug);
    const invoice = [...slug, ...declinesFrom(30, perInvoice - perSlug)];
    expect(declineLimit({ slug, invoice }, now)).toEqual({
      until: new Date(minutesAgo(perSlug) + windowMs),
      scope: 'invoice',
    });
  });
});

describe('withDecline', () => {
  it('puts the new decline first in both counts and keeps each at most its limit', () => {
    const slug = declinesFrom(1, perSlug);
    const invoice = declinesFrom(1, perInvoice);
    expect(withDecline({ slug, invoice }, now)).toEqual({
      slug: [now.getTime(), ...slug.slice(0, perSlug - 1)],
      invoice: [now.getTime(), ...invoice.slice(0, perInvoice - 1)],
    });
  });

  it('drops declines that left the window', () => {
    const history = [minutesAgo(10), minutesAgo(60), minutesAgo(90)];
    const kept = [now.getTime(), minutesAgo(10)];
    expect(withDecline({ slug: history, invoice: history }, now)).toEqual({ slug: kept, invoice: kept });
  });
});

describe('declinesAfterChange', () => {
  const declines = { slug: declinesFrom(1, 3), invoice: declinesFrom(1, 8) };

  it('keeps both counts through a change that keeps the slug', () => {
    expect(declinesAfterChange(declines, { slugChanged: false, cleared: false })).toEqual(declines);
  });

  it('starts a new slug’s count empty and keeps the invoice’s', () => {
    expect(declinesAfterChange(declines, { slugChanged: true, cleared: false })).toEqual({
      slug: [],
      invoice: declines.invoice,
    });
  });

  it('empties both on the merchant’s clear', () => {
    expect(declinesAfterChange(declines, { slugChanged: false, cleared: true })).toEqual(noDeclines);
  });
});

describe('secondsUntil', () => {
  it('rounds up to whole seconds and is never less than 1', () => {
    expect(secondsUntil(new Date(now.getTime() + 1_001), now)).toBe(2);
    expect(secondsUntil(new Date(now.getTime() + 60_000), now)).toBe(60);
    expect(secondsUntil(now, now)).toBe(1);
  });
});
