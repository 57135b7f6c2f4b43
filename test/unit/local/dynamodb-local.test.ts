import { describe, expect, it } from 'vitest';
import { JavaMissingError, parseJavaMajorVersion } from '../../../tools/local/dynamodb-local';

describe('parseJavaMajorVersion', () => {
  it.each([
    ['openjdk version "17.0.15" 2025-04-15', 17],
    ['openjdk version "21" 2023-09-19', 21],
    ['java version "1.8.0_291"', 8],
    ['openjdk version "11.0.22" 2024-01-16 LTS', 11],
  ])('reads %s as Java %i', (output, major) => {
    expect(parseJavaMajorVersion(output)).toBe(major);
  });

  it('returns undefined for output it does not recognise', () => {
    expect(parseJavaMajorVersion('something else')).toBeUndefined();
  });
});

describe('JavaMissingError', () => {
  it('says in one line which Java to install and how', () => {
    expect(new JavaMissingError().message).toBe(
      'Java 17+ is required to run DynamoDB Local: install it (Debian: apt-get install -y openjdk-17-jre-headless) and retry.',
    );
    expect(new JavaMissingError({ foundVersion: 11 }).message).toContain('(found Java 11)');
    expect(new JavaMissingError().name).toBe('JavaMissingError');
  });
});
