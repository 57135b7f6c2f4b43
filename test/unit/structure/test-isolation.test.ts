import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './function-spans';
import { filesUnder } from './import-graph';

/**
 * A worker runs test file after test file in one process (vitest.config.ts), so a file must not
 * leave behind what would change the next file's behaviour.
 */
const testFiles = filesUnder('test').map((file) => ({
  file,
  text: readFileSync(join(projectRoot, file), 'utf8'),
}));

describe('test files leave nothing behind for the next file in their worker', () => {
  it('stubs AWS clients only through mockAwsClient, or restores the stub in the same file', () => {
    const leaking = testFiles
      .filter(({ file }) => file !== 'test/support/aws-client-mocks.ts')
      .filter(({ text }) => /\bmockClient\(/.test(text) && !/\.restore\(\)/.test(text))
      .map(({ file }) => file);
    expect(leaking).toEqual([]);
  });

  it('resets what vitest shares between files after every file', () => {
    const config = readFileSync(join(projectRoot, 'vitest.config.ts'), 'utf8');
    const hygiene = readFileSync(join(projectRoot, 'test/support/file-hygiene.ts'), 'utf8');
    for (const reset of ['useRealTimers', 'unstubAllEnvs', 'unstubAllGlobals', 'restoreAllMocks']) {
      expect(hygiene).toContain(`vi.${reset}()`);
    }
    const projects = config.match(/setupFiles: \[[^\]]*\]/g) ?? [];
    expect(projects.length).toBeGreaterThan(0);
    for (const setupFiles of projects) expect(setupFiles).toContain('test/support/file-hygiene.ts');
  });
});
