import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BundleMap, type Origin, originsOf } from '../../../functions/observability/original-stack';
import { functionEsbuildOptions } from '../../../lib/constructs/function-esbuild-options';
import {
  functionBundling,
  functionRuntimeEnvironment,
  projectRoot,
} from '../../../lib/constructs/service-function';

const fixture = join(projectRoot, 'test', 'support', 'failing-route-handler.ts');

/**
 * Runs in a fresh Node process with the functions' environment only, as Lambda would: imports the
 * bundle, then per step invokes the handler for that path (`/ok` answers, `/fail` throws) or,
 * for `drop-map`, deletes the source map beside the bundle.
 */
const invoker = `
import { unlinkSync } from 'node:fs';
const [bundle, ...steps] = process.argv.slice(1);
const { handler } = await import(bundle);
for (const step of steps) {
  if (step === 'drop-map') unlinkSync(new URL(bundle + '.map'));
  else console.log(JSON.stringify({ step, statusCode: (await handler({ path: '/' + step }, {})).statusCode }));
}`;

let outdir: string;
let bundleUrl: string;
let mapBytes: Buffer;

/** The stacks the error handler logged, in order, and the status of every invocation. */
async function runSteps(steps: readonly string[]): Promise<{ stacks: string[]; statuses: number[] }> {
  // Each run starts with the map in place, as a new container does; a step may delete it.
  await writeFile(join(outdir, 'index.mjs.map'), mapBytes);
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', invoker, bundleUrl, ...steps],
    { env: { PATH: process.env.PATH ?? '', ...functionRuntimeEnvironment } },
  );
  // The logger writes errors to stderr, the invoker its statuses to stdout.
  const lines = `${stdout}\n${stderr}`
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { message?: string; stack?: string; statusCode?: number });
  return {
    stacks: lines.flatMap((line) => (line.message === 'unhandled error' ? [line.stack ?? ''] : [])),
    statuses: lines.flatMap((line) => (line.statusCode === undefined ? [] : [line.statusCode])),
  };
}

/** `    at answerOrFail (/…/failing-route-handler.ts:<line of the throw>:<column of new Error>)` */
async function throwSiteFrame(): Promise<string> {
  const source = (await readFile(fixture, 'utf8')).split('\n');
  const line = source.findIndex((text) => text.includes("throw new Error('the step failed')"));
  const column = (source[line] ?? '').indexOf('new Error') + 1;
  return `    at answerOrFail (${fixture}:${line + 1}:${column})`;
}

describe('originalStack', () => {
  beforeAll(async () => {
    outdir = await mkdtemp(join(tmpdir(), 'original-stack-'));
    await build({
      ...functionEsbuildOptions(functionBundling, { sourceMaps: true }),
      entryPoints: [fixture],
      outfile: join(outdir, 'index.mjs'),
      logLevel: 'silent',
    });
    bundleUrl = pathToFileURL(join(outdir, 'index.mjs')).href;
    mapBytes = await readFile(join(outdir, 'index.mjs.map'));
  }, 60_000);

  afterAll(async () => {
    await rm(outdir, { recursive: true, force: true });
  });

  it('logs the TypeScript file, line, column and function name of the throw site', async () => {
    const { stacks, statuses } = await runSteps(['fail']);
    expect(statuses).toEqual([500]);
    expect(stacks).toHaveLength(1);
    const [message, firstFrame] = (stacks[0] ?? '').split('\n');
    expect(message).toBe('Error: the step failed');
    expect(firstFrame).toBe(await throwSiteFrame());
    expect(stacks[0]).not.toContain(bundleUrl);
  });

  it('reads no source map while nothing fails: a map deleted after a success is never missed', async () => {
    const { stacks, statuses } = await runSteps(['ok', 'drop-map', 'fail']);
    expect(statuses).toEqual([204, 500]);
    expect(stacks).toHaveLength(1);
    expect(stacks[0]?.split('\n')[1]).toMatch(/^ {4}at \S+ \(file:\S+:\d+:\d+\)$/);
    expect(stacks[0]?.split('\n')[1]).toContain(`(${bundleUrl}:`);
    expect(stacks[0]).not.toContain('.ts:');
  });

  it('keeps the map it read for the container’s life', async () => {
    const { stacks, statuses } = await runSteps(['fail', 'drop-map', 'fail']);
    expect(statuses).toEqual([500, 500]);
    expect(stacks.map((stack) => stack.split('\n')[1])).toEqual([
      await throwSiteFrame(),
      await throwSiteFrame(),
    ]);
  });

  it('finds the place Node’s own SourceMap finds for positions across the whole bundle', async () => {
    const payload = JSON.parse(mapBytes.toString('utf8')) as BundleMap;
    // Node's SourceMap reads past the end of `mappings` after a last segment of four fields and
    // gives it the previous name; an empty last line, which maps nothing, keeps it inside.
    const nodeMap = new SourceMap({
      ...payload,
      mappings: `${payload.mappings};`,
    } as unknown as SourceMapPayload);
    const lines = (await readFile(join(outdir, 'index.mjs'), 'utf8')).split('\n');
    const positions = lines.flatMap((text, index) =>
      Array.from(
        { length: Math.ceil(text.length / 997) + 1 },
        (_, step) => [index + 1, step * 997 + 1] as const,
      ),
    );
    // Outside a bundle the module resolves sources against its own file, as it would beside a bundle.
    const moduleMap = `${pathToFileURL(join(projectRoot, 'functions', 'http', 'original-stack.ts')).href}.map`;
    const expected = positions.map(([line, column]) => {
      const entry = nodeMap.findEntry(line - 1, column - 1);
      const origin = nodeMap.findOrigin(line, column);
      // Before the first mapping of its line, SourceMap answers with an earlier line's last one:
      // no place at all, for the module.
      if (!('generatedLine' in entry) || entry.generatedLine !== line - 1 || !('fileName' in origin))
        return undefined;
      const file = fileURLToPath(new URL(origin.fileName, moduleMap));
      return { location: `${file}:${origin.lineNumber}:${origin.columnNumber}`, name: origin.name };
    });
    const actual: (Origin | undefined)[] = [];
    for (let start = 0; start < positions.length; start += 10) {
      actual.push(...originsOf(payload, positions.slice(start, start + 10)));
    }
    expect(expected.filter((origin) => origin !== undefined).length).toBeGreaterThan(positions.length / 2);
    expect(actual).toEqual(expected);
  });
});
