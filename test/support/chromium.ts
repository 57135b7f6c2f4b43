import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium; playwright-core drives it and never downloads a browser of its own. */
const chromiumPath = '/usr/bin/chromium';

/**
 * Headless Chromium without its own background traffic (updates, sync), so every request a test
 * sees comes from the page. A missing browser throws at once (before the caller starts anything else)
 * with one line naming the package; the test fails, never skips.
 */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`${chromiumPath} not found: install Debian's Chromium with "apt-get install chromium".`);
  }
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
