import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryDocs } from '../../support/doc-links';
import {
  DeployedStageFence,
  Guides,
  MeasuringPages,
  type ShellBlock,
  shellBlocks,
  shellBlocksOf,
} from '../../support/walkthrough';

const repoRoot = join(import.meta.dirname, '..', '..', '..');
const scripts = Object.keys(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts);
const withBlocks = repositoryDocs().filter((file) => shellBlocksOf(repoRoot, file).length > 0);
const everyBlock = withBlocks.flatMap((file) => shellBlocksOf(repoRoot, file));

/**
 * A block's `bash -n` error, or nothing. A deployed stage's block names what the operator fills in
 * as `<placeholder>`, checked here as one word.
 */
function syntaxError(block: ShellBlock): string {
  const script =
    block.fence === DeployedStageFence ? block.script.replaceAll(/<[^<>\n]+>/g, 'placeholder') : block.script;
  try {
    execFileSync('bash', ['-n'], { input: script, stdio: ['pipe', 'pipe', 'pipe'] });
    return '';
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}

describe('the README', () => {
  it('holds at most 150 lines: the rest is in the guides', () => {
    const lines = readFileSync(join(repoRoot, 'README.md'), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(150);
  });

  it('indexes every guide directly under docs/', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const guides = readdirSync(join(repoRoot, 'docs')).filter((name) => name.endsWith('.md'));
    expect(guides.length).toBeGreaterThan(10);
    expect(guides.filter((name) => !readme.includes(`](docs/${name})`))).toEqual([]);
  });
});

describe('the shell blocks of the README and docs/', () => {
  it('are each run by the walkthrough, run by a measuring test, or need a deployed stage', () => {
    const unclassified = withBlocks.filter(
      (file) =>
        !(Guides as readonly string[]).includes(file) &&
        MeasuringPages[file] === undefined &&
        shellBlocksOf(repoRoot, file).some((block) => block.fence !== DeployedStageFence),
    );
    expect(unclassified).toEqual([]);
    for (const file of Guides) expect(withBlocks, `${file} has no shell block to run`).toContain(file);
    for (const test of Object.values(MeasuringPages))
      expect(existsSync(join(repoRoot, test)), test).toBe(true);
  });

  it('are fenced `sh`, or `sh deployed-stage` only where a stage is deployed and run', () => {
    expect(new Set(everyBlock.map((block) => block.fence))).toEqual(new Set(['sh', DeployedStageFence]));
    const deployed = everyBlock.filter((block) => block.fence === DeployedStageFence);
    expect(new Set(deployed.map((block) => block.at.split(':')[0]))).toEqual(
      new Set(['docs/deploying.md', 'docs/operations.md']),
    );
  });

  it.each(everyBlock.map((block) => [block.at, block] as const))('%s parses as bash', (_, block) => {
    expect(syntaxError(block)).toBe('');
  });

  it('name only npm scripts package.json defines', () => {
    const named = everyBlock.flatMap((block) =>
      [...block.script.matchAll(/\bnpm run (?:-s )?([a-z][\w-]*)/g)].map(([, name]) => name),
    );
    expect(named.length).toBeGreaterThan(10);
    expect([...new Set(named)].filter((name) => !scripts.includes(name ?? ''))).toEqual([]);
  });
});

describe('shellBlocks', () => {
  it('finds each block with its fence and the line it opens on', () => {
    const markdown = [
      '# Title',
      '```sh',
      'echo one',
      '```',
      'text',
      '```sh deployed-stage',
      'aws x',
      '```',
    ].join('\n');
    expect(shellBlocks('a.md', markdown)).toEqual([
      { at: 'a.md:2', fence: 'sh', script: 'echo one\n' },
      { at: 'a.md:6', fence: 'sh deployed-stage', script: 'aws x\n' },
    ]);
  });

  it('leaves other code blocks alone', () => {
    expect(shellBlocks('a.md', '```ts\nconst x = 1;\n```\n```\nplain\n```')).toEqual([]);
  });
});
