/**
 * The browser of the browser tests (the client's, the docs'): Debian's Chromium in its headless shell
 * (package chromium-headless-shell: the same Blink and V8 without the browser's window and UI, what
 * Playwright itself runs headless tests in) driven by playwright-core, never a downloaded browser,
 * that sends every request leaving the loopback host to a proxy that is not there, so that none
 * leaves; and a guard that records those requests.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

// The shell, not /usr/bin/chromium: the docs' site test took 90 core-seconds with it against 129.
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
const missingChromium = `no Chromium at ${chromiumPath} (scripts/system-deps.sh installs Debian's chromium-headless-shell; or set CHROMIUM_PATH)`;

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
  // Every request off the loopback host (which Chromium never sends to a proxy) goes to the discard
  // port, where nothing listens: it fails at once and leaves nothing. Blocking with a Playwright route
  // instead paused every request of every page for the test process to let through, and turned off
  // Chromium's HTTP cache.
  `--proxy-server=http://127.0.0.1:9`,
  // The pages' JavaScript on the page's thread alone, without the optimizing compiler: V8's background
  // compiling and GC threads cost more than they saved (docs site + console tests: 120-138 core-s, 152-158 without).
  '--js-flags=--single-threaded --no-opt',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) throw new Error(missingChromium);
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}

const localHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Records in `blocked` every request of the context that leaves the loopback host, which a browser
 * of `launchChromium` does not let out (see its proxy above).
 */
export async function blockOutsideLocalhost(context: BrowserContext, blocked: string[]): Promise<void> {
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && !localHosts.has(url.hostname)) blocked.push(url.href);
  });
}
