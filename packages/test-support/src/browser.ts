/**
 * The browser of the browser tests (the client's, the docs'): Debian's Chromium driven by
 * playwright-core, never a downloaded browser, and a guard that blocks every request that leaves
 * the loopback host.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missingChromium = `no Chromium at ${chromiumPath} (scripts/system-deps.sh installs Debian's chromium; or set CHROMIUM_PATH)`;

/**
 * Whether `suite` skips for want of Chromium, saying so. In CI the set-up installs Chromium, so
 * there its absence is not a skip: `launchChromium` then fails the suite.
 */
export function skipWithoutChromium(suite: string): boolean {
  const skip = !existsSync(chromiumPath) && !process.env.CI;
  if (skip) console.warn(`${suite} skipped: ${missingChromium}`);
  return skip;
}

/** Headless, and quiet: no background requests of its own that the guard would have to count. */
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) throw new Error(missingChromium);
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}

const localHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Lets requests to the loopback host through, and blocks and records every other one in `blocked`. */
export async function blockOutsideLocalhost(context: BrowserContext, blocked: string[]): Promise<void> {
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || localHosts.has(url.hostname)) return route.continue();
    blocked.push(url.href);
    return route.abort('blockedbyclient');
  });
}
