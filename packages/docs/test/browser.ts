/** What the browser tests share: Debian's Chromium, and a guard that blocks every request outside localhost. */
import { existsSync } from 'node:fs';
import type { BrowserContext } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const missingChromium = `no Chromium at ${chromiumPath} (scripts/system-deps.sh installs Debian's chromium; or set CHROMIUM_PATH)`;
// In CI the set-up installs Chromium, so its absence fails the suite there instead of skipping it.
export const skipBrowser = !existsSync(chromiumPath) && !process.env.CI;
if (skipBrowser) console.warn(`docs browser tests skipped: ${missingChromium}`);

export const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

const localHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Lets requests to the loopback host through, and blocks and records every other one. */
export async function blockOutsideLocalhost(context: BrowserContext, blocked: string[]): Promise<void> {
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || localHosts.has(url.hostname)) return route.continue();
    blocked.push(url.href);
    return route.abort('blockedbyclient');
  });
}
