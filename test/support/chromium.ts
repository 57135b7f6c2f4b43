import { existsSync } from 'node:fs';
import sparticuzChromium from '@sparticuz/chromium';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, used where the machine has it. */
export const systemChromiumPath = '/usr/bin/chromium';

/**
 * The Chromium the browser tests drive: Debian's where it is installed, else the one that ships
 * inside the `@sparticuz/chromium` package (unpacked to the temporary folder on first use), so
 * `npm install && npm test` needs no browser on the machine and nothing downloads one.
 */
export async function chromiumExecutable(
  systemPath: string = systemChromiumPath,
): Promise<{ path: string; source: 'system' | 'package' }> {
  if (existsSync(systemPath)) return { path: systemPath, source: 'system' };
  return { path: await sparticuzChromium.executablePath(), source: 'package' };
}

/**
 * Headless, and quiet on this machine's closed network: without the background-networking flags
 * Chromium keeps opening connections that are refused.
 */
export const chromiumLaunchArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  const { path } = await chromiumExecutable();
  return chromium.launch({ executablePath: path, args: chromiumLaunchArgs });
}
