import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * tools/local/ is the local stand-in for AWS and nothing else (docs/architecture.md#the-local-runtime):
 * DynamoDB Local and its table (with the indexes a kept table lacks), the stream, the queues, the
 * gateway and the mail inbox.
 */
const localRuntimeDir = 'tools/local';
const maxLines = 2_200;

/** Lines as `wc -l` counts them: newline characters. */
function lineCount(text: string): number {
  return text.split('\n').length - 1;
}

function lineCounts(dir: string): Map<string, number> {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  const counts = new Map<string, number>();
  for (const entry of entries.filter((candidate) => candidate.isFile())) {
    const path = join(entry.parentPath, entry.name);
    counts.set(relative(dir, path), lineCount(readFileSync(path, 'utf8')));
  }
  return new Map([...counts].sort(([a], [b]) => a.localeCompare(b)));
}

describe('the local runtime', () => {
  it(`keeps tools/local/ at ${maxLines} lines or fewer`, () => {
    const counts = lineCounts(localRuntimeDir);
    const total = [...counts.values()].reduce((sum, lines) => sum + lines, 0);
    const perFile = [...counts].map(([file, lines]) => `${String(lines).padStart(5)} ${file}`).join('\n');

    expect(counts.size).toBeGreaterThan(0);
    expect(total, `tools/local/ holds ${total} lines (at most ${maxLines}):\n${perFile}`).toBeLessThanOrEqual(
      maxLines,
    );
  });

  it('counts lines as wc -l does', () => {
    expect([lineCount(''), lineCount('a\n'), lineCount('a\nb'), lineCount('a\n\nb\n')]).toEqual([0, 1, 1, 3]);
  });
});
