/** What a capture of the process's output holds so far, and how to end it. */
export interface PrintedLinesCapture {
  /** Every JSON object line printed since the capture started, parsed, oldest first. */
  lines(): Record<string, unknown>[];
  stop(): void;
}

/**
 * Captures the JSON lines printed to `process.stdout` and `process.stderr`, where the Powertools
 * logger (errors and warnings on stderr) and Powertools Metrics print through `Console`s of their
 * own, while still passing them on. Lines that are not JSON objects are left out.
 */
export function capturePrintedJsonLines(): PrintedLinesCapture {
  const texts = { stdout: '', stderr: '' };
  const restores = (['stdout', 'stderr'] as const).map((name) => {
    const stream = process[name];
    const write = stream.write;
    stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      texts[name] += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
      return write.call(stream, chunk, ...rest);
    }) as typeof stream.write;
    return () => {
      stream.write = write;
    };
  });
  return {
    lines: () =>
      `${texts.stdout}\n${texts.stderr}`
        .split('\n')
        .flatMap(jsonObjectOf)
        .sort((a, b) => String(a.timestamp ?? '').localeCompare(String(b.timestamp ?? ''))),
    stop: () => {
      for (const restore of restores) restore();
    },
  };
}

/** The JSON lines `act` prints. */
export async function printedJsonLinesDuring(
  act: () => Promise<unknown>,
): Promise<Record<string, unknown>[]> {
  const capture = capturePrintedJsonLines();
  try {
    await act();
  } finally {
    capture.stop();
  }
  return capture.lines();
}

function jsonObjectOf(line: string): Record<string, unknown>[] {
  if (!line.startsWith('{')) return [];
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null ? [parsed as Record<string, unknown>] : [];
  } catch {
    return [];
  }
}
