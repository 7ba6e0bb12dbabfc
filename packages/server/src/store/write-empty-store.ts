/** The build's last step (`pnpm build`): writes the empty embedded database the server starts from. */
import { writeEmptyStore } from './empty-store.js';

console.log(`empty store: ${await writeEmptyStore()}`);
