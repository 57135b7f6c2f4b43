import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../tools/cli/command-failure';
import { eventCountFor, parseSoakOptions } from '../../../tools/soak/soak-options';

describe('parseSoakOptions', () => {
  it('runs 30 s without options, and as long as --duration says', () => {
    expect(parseSoakOptions([])).toEqual({ help: false, durationSeconds: 30 });
    expect(parseSoakOptions(['--duration', '5'])).toEqual({ help: false, durationSeconds: 5 });
    expect(parseSoakOptions(['--help']).help).toBe(true);
  });

  it.each([
    [
      ['--duration', 'five'],
      '--duration "five" is not accepted: it must be a whole number of seconds from 1 to 3600.',
    ],
    [
      ['--duration', '0'],
      '--duration "0" is not accepted: it must be a whole number of seconds from 1 to 3600.',
    ],
    [
      ['--duration', '3601'],
      '--duration "3601" is not accepted: it must be a whole number of seconds from 1 to 3600.',
    ],
    [['--duration'], '--duration needs a value.'],
    [['--events', '10'], 'unknown option "--events": accepted are --duration and --help.'],
  ])('refuses %j in one line naming what is accepted', (args, message) => {
    expect(() => parseSoakOptions(args)).toThrow(new UsageError(message));
  });
});

describe('eventCountFor', () => {
  it('is 1,000 events for the 30 s run and as many per second for others', () => {
    expect(eventCountFor(30)).toBe(1_000);
    expect(eventCountFor(3)).toBe(100);
    expect(eventCountFor(60)).toBe(2_000);
    expect(eventCountFor(1)).toBe(33);
  });
});
