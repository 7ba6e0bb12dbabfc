/**
 * `pnpm --filter @swap-gateway/server keys:issue [--label <who>]`: issues an API key into the
 * configured store and prints it once; only its hash is kept. With the embedded store, run it while
 * the server is stopped (the data directory takes one process at a time).
 */
import { parseArgs } from 'node:util';
import { loadConfig, storeLocation } from '../config/config.js';
import { openStore } from '../store/open-store.js';
import { issueApiKey } from './keys.js';

const { values } = parseArgs({
  options: { label: { type: 'string', default: 'partner' }, config: { type: 'string' }, 'data-dir': { type: 'string' } },
});
const config = loadConfig({
  configFile: values.config,
  overrides: values['data-dir'] ? { storage: { dataDir: values['data-dir'] } } : undefined,
});
const store = await openStore(storeLocation(config.storage));
try {
  const { id, key } = await issueApiKey(store.db, values.label!);
  process.stdout.write(`${key}\n`);
  process.stderr.write(`issued key ${id} (${values.label}); it is shown only now: send it as "Authorization: Bearer <key>"\n`);
} finally {
  await store.close();
}
