import { describe, expect, it } from 'vitest';
import { AdminError, MaxDurationSeconds, parseDuration } from '../../../tools/admin/operations';

describe('parseDuration', () => {
  it.each([
    ['45s', 45],
    ['30m', 1800],
    ['24h', 86_400],
    ['7d', 604_800],
    ['0s', 0],
    ['3650d', MaxDurationSeconds],
  ])('reads %s as %i seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(['', '24', 'h', '1.5h', '-1h', '+1h', ' 24h', '24h ', '24H', '1w', '1h30m'])(
    'refuses "%s" with an AdminError naming the text',
    (text) => {
      expect(() => parseDuration(text)).toThrow(AdminError);
      expect(() => parseDuration(text)).toThrow(`"${text}" is not a duration`);
    },
  );

  it('refuses durations beyond 3650d, which would overflow an expiry date', () => {
    expect(() => parseDuration('3651d')).toThrow('longer than the maximum of 3650d');
    expect(() => parseDuration('99999999999999999999d')).toThrow(AdminError);
  });
});
