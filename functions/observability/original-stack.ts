import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `    at [async ][new ]name (location:line:column)`, or the location alone for an anonymous frame. */
const framePattern = /^(\s*at (?:async )?(?:new )?)(?:(.*) \()?(.+):(\d+):(\d+)\)?$/;

/** The module's own URL: in a deployed function, the bundle every frame of our code points into. */
const bundleUrl = import.meta.url;
const mapUrl = `${bundleUrl}.map`;

export interface BundleMap {
  readonly sources: readonly string[];
  readonly names?: readonly string[];
  readonly mappings: string;
}

export interface Origin {
  readonly location: string;
  readonly name: string | undefined;
}

/** Read on the first error that needs it and kept for the container's life; null when there is none. */
let bundleMap: BundleMap | null | undefined;

/**
 * The error's stack with every frame of this bundle pointing at the TypeScript it came from. Node
 * is not asked to map stacks (`--enable-source-maps` reads the whole map on every cold start), so
 * the map is read here, only once an error is logged. Without a map (tsx, vitest) the stack is
 * returned as it is.
 */
export function originalStack(error: unknown): string | undefined {
  const stack = (error as Error | undefined)?.stack;
  if (typeof stack !== 'string' || !stack.includes(`${bundleUrl}:`)) return stack;
  const map = loadBundleMap();
  if (map === null) return stack;
  const frames = stack.split('\n').map((line) => ({ line, match: framePattern.exec(line) }));
  const origins = originsOf(
    map,
    frames.map(({ match }) => (match?.[3] === bundleUrl ? [Number(match[4]), Number(match[5])] : undefined)),
  );
  return frames
    .map(({ line, match }, index) => {
      const origin = origins[index];
      if (match === null || origin === undefined) return line;
      // A minified function's own name is lost, but the call that reached it names it (as Node does).
      const name = origins[index + 1]?.name ?? match[2];
      return `${match[1]}${name === undefined ? origin.location : `${name} (${origin.location})`}`;
    })
    .join('\n');
}

function loadBundleMap(): BundleMap | null {
  if (bundleMap === undefined) {
    try {
      bundleMap = JSON.parse(readFileSync(fileURLToPath(mapUrl), 'utf8')) as BundleMap;
    } catch {
      bundleMap = null;
    }
  }
  return bundleMap;
}

/**
 * The original place of each 1-based generated line and column: the last mapping at or before it
 * on that line. One pass over the VLQ mappings for the whole stack, keeping only running fields:
 * Node's `SourceMap` class builds an array per mapping first, hundreds of milliseconds for a route.
 */
export function originsOf(
  map: BundleMap,
  positions: readonly (readonly [line: number, column: number] | undefined)[],
): (Origin | undefined)[] {
  const { mappings } = map;
  const targetLines = new Set(positions.map((position) => position?.[0]));
  const lastLine = Math.max(0, ...positions.map((position) => position?.[0] ?? 0));
  // Generated column, source index, original line, original column, name index: each one relative.
  const fields = [0, 0, 0, 0, 0];
  // Per position: those fields of its mapping and how many the mapping had (0: none found yet).
  const found = positions.map(() => [0, 0, 0, 0, 0, 0]);
  let generatedLine = 1;
  let count = 0;
  let value = 0;
  let shift = 0;
  for (let index = 0; index <= mappings.length && generatedLine <= lastLine; index++) {
    const code = index === mappings.length ? 59 : mappings.charCodeAt(index);
    if (code === 44 || code === 59) {
      for (let at = 0; count > 0 && targetLines.has(generatedLine) && at < positions.length; at++) {
        const position = positions[at];
        const slot = found[at];
        if (slot === undefined || position?.[0] !== generatedLine || (fields[0] ?? 0) >= position[1])
          continue;
        for (let field = 0; field < 5; field++) slot[field] = fields[field] ?? 0;
        slot[5] = count;
      }
      count = 0;
      if (code === 59) {
        generatedLine++;
        fields[0] = 0;
      }
      continue;
    }
    // A base64 digit (A–Z, a–z, 0–9, +, /) of a VLQ: five bits of the value and a continuation bit.
    const digit =
      code > 96 ? code - 71 : code > 64 ? code - 65 : code > 47 ? code + 4 : code === 43 ? 62 : 63;
    value += (digit & 31) << shift;
    shift += 5;
    if (digit & 32) continue;
    fields[count] = (fields[count] ?? 0) + (value & 1 ? -(value >>> 1) : value >>> 1);
    count++;
    value = 0;
    shift = 0;
  }
  return found.map(
    ([generatedColumn = 0, source = 0, line = 0, column = 0, name = 0, fieldCount = 0], at) => {
      // A segment of one field maps nothing; four or five fields name a place in a source.
      if (fieldCount < 4) return undefined;
      const file = fileURLToPath(new URL(map.sources[source] ?? '', mapUrl));
      const offset = (positions[at]?.[1] ?? 0) - generatedColumn;
      return {
        location: `${file}:${line + 1}:${column + offset}`,
        name: fieldCount === 5 ? map.names?.[name] : undefined,
      };
    },
  );
}
