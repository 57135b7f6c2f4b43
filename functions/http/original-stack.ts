import { readFileSync } from 'node:fs';
import { SourceMap, type SourceOrigin } from 'node:module';
import { fileURLToPath } from 'node:url';

/** `    at [async ][new ]name (location:line:column)`, or the location alone for an anonymous frame. */
const framePattern = /^(\s*at (?:async )?(?:new )?)(?:(.*) \()?(.+):(\d+):(\d+)\)?$/;

/** The module's own URL: in a deployed function, the bundle every frame of our code points into. */
const bundleUrl = import.meta.url;
const mapUrl = `${bundleUrl}.map`;

/** Parsed on the first error that needs it and kept for the container's life; null when there is none. */
let bundleMap: SourceMap | null | undefined;

/**
 * The error's stack with every frame of this bundle pointing at the TypeScript it came from. Node
 * is not asked to map stacks (`--enable-source-maps` parses the whole map on every cold start), so
 * the map is read here, only once an error is logged. Without a map (tsx, vitest) the stack is
 * returned as it is.
 */
export function originalStack(error: unknown): string | undefined {
  const stack = (error as Error | undefined)?.stack;
  if (typeof stack !== 'string' || !stack.includes(`${bundleUrl}:`)) return stack;
  const map = loadBundleMap();
  if (map === null) return stack;
  const lines = stack.split('\n');
  return lines.map((line, index) => mapFrame(map, line, lines[index + 1])).join('\n');
}

function loadBundleMap(): SourceMap | null {
  if (bundleMap === undefined) {
    try {
      bundleMap = new SourceMap(JSON.parse(readFileSync(fileURLToPath(mapUrl), 'utf8')));
    } catch {
      bundleMap = null;
    }
  }
  return bundleMap;
}

/**
 * A minified function's own name is lost, but the call that reached it names it: like Node, the
 * frame takes the original name found at its caller's position when the caller is in the bundle too.
 */
function mapFrame(map: SourceMap, line: string, callerLine: string | undefined): string {
  const frame = framePattern.exec(line);
  const origin = frame === null ? undefined : originOf(map, frame[3], frame[4], frame[5]);
  if (frame === null || origin === undefined) return line;
  const caller = callerLine === undefined ? null : framePattern.exec(callerLine);
  const name = (caller && originOf(map, caller[3], caller[4], caller[5])?.name) ?? frame[2];
  const location = `${fileURLToPath(new URL(origin.fileName, mapUrl))}:${origin.lineNumber}:${origin.columnNumber}`;
  return `${frame[1]}${name === undefined ? location : `${name} (${location})`}`;
}

function originOf(map: SourceMap, file = '', line = '', column = ''): SourceOrigin | undefined {
  if (file !== bundleUrl) return undefined;
  const origin = map.findOrigin(Number(line), Number(column));
  return 'fileName' in origin ? origin : undefined;
}
