import { readdirSync, readFileSync } from 'node:fs';

/** A process as /proc shows it; the start time tells it apart from a later process given the same pid. */
export interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  /** Clock ticks since boot (field 22 of /proc/<pid>/stat). */
  readonly startTime: string;
  /** R, S, D, Z, … (field 3). */
  readonly state: string;
  readonly command: string;
}

/** The process of `pid`, or undefined once it has gone. */
export function processEntry(pid: number): ProcessEntry | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name sits in parentheses and may itself hold spaces or parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let command = '';
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {}
  return { pid, state: fields[0] ?? '', ppid: Number(fields[1]), startTime: fields[19] ?? '', command };
}

/** Every process below `pid` (children, their children, …), read from /proc now. */
export function descendantsOf(pid: number): ProcessEntry[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => processEntry(Number(name)))
    .filter((entry) => entry !== undefined);
  const found: ProcessEntry[] = [];
  const parents = [pid];
  while (parents.length > 0) {
    const parent = parents.pop();
    for (const entry of all) {
      if (entry.ppid !== parent) continue;
      found.push(entry);
      parents.push(entry.pid);
    }
  }
  return found;
}

/**
 * Whether that very process still runs. A zombie does not: it has ended and only waits for its new
 * parent (init, once its own parent is gone) to collect its exit status.
 */
export function isStillRunning(process: ProcessEntry): boolean {
  const now = processEntry(process.pid);
  return now !== undefined && now.startTime === process.startTime && now.state !== 'Z';
}
