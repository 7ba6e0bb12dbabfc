/** Where the package keeps its sources and writes the site. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = fileURLToPath(new URL('../', import.meta.url));
/** The built site: `pnpm docs` writes it, `pnpm docs:serve` and the browser test serve it. */
export const defaultOutput = join(packageRoot, 'dist');
/** Screenshots the browser test saves (not committed). */
export const screenshotsDirectory = join(packageRoot, 'screenshots');
