/**
 * Finds the places a test would listen on, or connect to, a port fixed in advance: such a test fails
 * whenever anything else on the machine holds that port. A server a test starts listens on port 0
 * (the system picks a free one) and is reached at the port it then reports.
 */

/** One place, 1-based line, with what is wrong in words. */
export interface FixedPortFinding {
  readonly line: number;
  readonly problem: string;
}

/**
 * What a test can start that listens on a fixed default unless told otherwise, and the name of the
 * setting that tells it: `npm start`'s PORT is 3000, the webhook receiver's 4443.
 */
const starters: readonly { readonly marker: RegExp; readonly what: string; readonly port: string }[] = [
  { marker: /\bstartLocalEntry\(/g, what: 'startLocalEntry (npm start)', port: 'PORT' },
  { marker: /\bstartLocalRuntime\(/g, what: 'startLocalRuntime', port: 'PORT' },
  { marker: /\bstartWebhookReceiver\(/g, what: 'startWebhookReceiver', port: 'port' },
  { marker: /\bstartLocalGateway\(/g, what: 'startLocalGateway', port: 'port' },
  { marker: /'tsx',\s*'bin\/local\.ts'/g, what: 'bin/local.ts (npm start)', port: 'PORT' },
  { marker: /\[\s*'start'/g, what: 'npm start', port: 'PORT' },
  { marker: /'tsx',\s*'bin\/webhook-receiver\.ts'/g, what: 'bin/webhook-receiver.ts', port: 'RECEIVER_PORT' },
  { marker: /'run',\s*'webhook-receiver'/g, what: 'npm run webhook-receiver', port: 'RECEIVER_PORT' },
];

/** Anywhere in a test: a literal port given to listen, or a connection to a fixed loopback port. */
const literalPorts: readonly { readonly pattern: RegExp; readonly problem: string }[] = [
  { pattern: /\.listen\(\s*[1-9]\d*/g, problem: 'listens on a fixed port' },
  { pattern: /\.listen\(\s*\{[^}]*\bport\s*:\s*[1-9]\d*/g, problem: 'listens on a fixed port' },
  {
    pattern:
      /\b(?:fetch|request|get|connect|createConnection)\(\s*['"`]?(?:[a-z]+:\/\/)?(?:localhost|127\.0\.0\.1|\[::1\]):[1-9]\d*/g,
    problem: 'connects to a fixed loopback port',
  },
  {
    pattern: /\b(?:connect|createConnection)\(\s*\{?[^)]*\bport\s*:\s*[1-9]\d*/g,
    problem: 'connects to a fixed port',
  },
];

/**
 * The findings in the text of one test file. A starter's call must name its port setting, and not
 * as a literal other than 0; the call checked is the innermost one around the marker, so a helper
 * that forwards `env` untouched is flagged, and one that sets `PORT: '0'` before `...env` is not.
 */
export function fixedPortFindings(source: string): FixedPortFinding[] {
  const text = withoutCommentsAndRegExps(source);
  const findings: FixedPortFinding[] = [];
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  for (const { pattern, problem } of literalPorts) {
    for (const match of text.matchAll(pattern)) findings.push({ line: lineAt(match.index), problem });
  }
  for (const starter of starters) {
    for (const match of text.matchAll(starter.marker)) {
      if (isDefinition(text, match.index)) continue;
      const call = enclosingCall(text, match.index, match[0].endsWith('('));
      if (call === undefined) continue;
      // `PORT: …`, `'PORT': …` or the shorthand `{ port }`.
      const named = new RegExp(`(?:^|[{,\\s])${starter.port}['"]?\\s*[:,}]`).test(call);
      const fixed = new RegExp(`\\b${starter.port}['"]?\\s*:\\s*['"\`]?[1-9]`).test(call);
      if (!named) {
        findings.push({
          line: lineAt(match.index),
          problem: `starts ${starter.what} without ${starter.port}: it listens on its fixed default (give ${starter.port} 0)`,
        });
      } else if (fixed) {
        findings.push({
          line: lineAt(match.index),
          problem: `starts ${starter.what} with a fixed ${starter.port} (give it 0)`,
        });
      }
    }
  }
  return findings.sort((a, b) => a.line - b.line);
}

/** `function startLocalEntry(` declares the starter: its callers are checked, not its own body. */
function isDefinition(text: string, index: number): boolean {
  return /\bfunction\s+$/.test(text.slice(Math.max(0, index - 20), index));
}

/**
 * The argument text of a call: the one that opens at the marker's own `(` when the marker is a
 * callee, else the innermost call whose parentheses hold the marker. Strings are skipped whole.
 */
function enclosingCall(text: string, index: number, calleeMarker: boolean): string | undefined {
  const open = calleeMarker ? text.indexOf('(', index) : innermostOpen(text, index);
  if (open < 0) return undefined;
  const close = matchingClose(text, open);
  return close < 0 ? undefined : text.slice(open + 1, close);
}

/** The `(` of the innermost call still open at `index`, counted from the start of the text. */
function innermostOpen(text: string, index: number): number {
  const open: number[] = [];
  for (let at = 0; at < index; at += 1) {
    const char = text[at];
    if (char === "'" || char === '"' || char === '`') at = stringEnd(text, at);
    else if (char === '(') open.push(at);
    else if (char === ')') open.pop();
  }
  return open.at(-1) ?? -1;
}

function matchingClose(text: string, open: number): number {
  let depth = 0;
  for (let at = open; at < text.length; at += 1) {
    const char = text[at];
    if (char === "'" || char === '"' || char === '`') at = stringEnd(text, at);
    else if (char === '(') depth += 1;
    else if (char === ')') {
      depth -= 1;
      if (depth === 0) return at;
    }
  }
  return -1;
}

/** Where the string that opens at `start` closes (escapes honoured); the end of the text if never. */
function stringEnd(text: string, start: number): number {
  const quote = text[start];
  for (let at = start + 1; at < text.length; at += 1) {
    if (text[at] === '\\') at += 1;
    else if (text[at] === quote) return at;
  }
  return text.length;
}

/** What may stand before a `/` that opens a regular expression literal rather than divides. */
const beforeRegExp = /[(,=:[!&|?{};]\s*$|^\s*$|\breturn\s*$/;

/** A `/` opens a regular expression where its line so far ends in an operator, or holds nothing. */
function opensRegExp(text: string, at: number): boolean {
  const lineSoFar =
    text
      .slice(Math.max(0, at - 40), at)
      .split('\n')
      .at(-1) ?? '';
  return beforeRegExp.test(lineSoFar);
}

/**
 * The text with its comments and regular expression literals blanked (newlines kept, so line
 * numbers hold): an apostrophe in either would read as the start of a string.
 */
export function withoutCommentsAndRegExps(text: string): string {
  const chars = text.split('');
  const blank = (from: number, to: number) => {
    for (let at = from; at < to; at += 1) if (chars[at] !== '\n') chars[at] = ' ';
  };
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (char === "'" || char === '"' || char === '`') {
      at = stringEnd(text, at);
    } else if (text.startsWith('//', at)) {
      const end = text.indexOf('\n', at);
      const stop = end < 0 ? text.length : end;
      blank(at, stop);
      at = stop;
    } else if (text.startsWith('/*', at)) {
      const end = text.indexOf('*/', at + 2);
      const stop = end < 0 ? text.length : end + 2;
      blank(at, stop);
      at = stop - 1;
    } else if (char === '/' && opensRegExp(text, at)) {
      const stop = regExpEnd(text, at);
      blank(at, stop + 1);
      at = stop;
    }
  }
  return chars.join('');
}

/** Where the regular expression literal that opens at `start` closes (a `/` in a class is not its end). */
function regExpEnd(text: string, start: number): number {
  let inClass = false;
  for (let at = start + 1; at < text.length; at += 1) {
    const char = text[at];
    if (char === '\\') at += 1;
    else if (char === '\n') return at - 1;
    else if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    else if (char === '/' && !inClass) return at;
  }
  return text.length - 1;
}
