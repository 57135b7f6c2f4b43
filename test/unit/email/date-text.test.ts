import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateText } from '../../../functions/email/date-text';
import { assertProperty } from '../../support/property';

const intlLongDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

describe('dateText', () => {
  it('writes the date part of a timestamp as written, whatever its time of day', () => {
    expect(dateText('2026-12-01T23:30:00.000Z')).toBe('December 1, 2026');
    expect(dateText('2026-12-01')).toBe('December 1, 2026');
  });

  it('writes every date of years 1000 to 9999 as Intl en-US long in UTC does', () => {
    const anyDate = fc.date({
      min: new Date('1000-01-01T00:00:00Z'),
      max: new Date('9999-12-31T23:59:59Z'),
      noInvalidDate: true,
    });
    assertProperty(
      fc.property(anyDate, (date) => {
        expect(dateText(date.toISOString())).toBe(intlLongDate.format(date));
      }),
    );
  });

  it.each(['2026-02-31T00:00:00Z', '2026-13-01', '2026-00-10', 'soon', ''])(
    'is undefined for %j',
    (value) => {
      expect(dateText(value)).toBeUndefined();
    },
  );
});
