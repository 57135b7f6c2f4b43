import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '..', '..', '..');
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const packageJson = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  engines: { node: string };
};
const lockfile = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean }>;
};

/** The "Quick start" section's first claim: `Needs Node.js <major>[.<minor>]+`. */
function statedMinimum(): string {
  const stated = /Needs Node\.js (\d+)(?:\.(\d+))?\+/.exec(readme);
  expect(stated, 'README "Quick start" says which Node.js it needs').not.toBeNull();
  return `${stated?.[1]}.${stated?.[2] ?? 0}.0`;
}

/** Installed packages whose own `engines.node` refuses `version`: npm warns EBADENGINE for each. */
function packagesRefusing(version: string): string[] {
  return Object.entries(lockfile.packages).flatMap(([path, entry]) => {
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (path === '' || range === undefined || semver.satisfies(version, range)) return [];
    return [path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)];
  });
}

describe('the Node.js version the README asks for', () => {
  it('is the one package.json declares', () => {
    expect(semver.minVersion(packageJson.engines.node)?.version).toBe(statedMinimum());
  });

  it('names every installed package that warns on it, so `npm install` prints nothing unexplained', () => {
    const setUp = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Develop'));
    const refusing = packagesRefusing(statedMinimum());
    expect(refusing.filter((name) => !setUp.includes(`\`${name}\``))).toEqual([]);
  });
});
