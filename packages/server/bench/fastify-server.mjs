// The framework alone: Fastify answering GET /v4/get-quote with one get-quote answer read from the
// file after `--answer`, serialized each request as the server's answers are (JSON.stringify), with
// no plugin, validation, rate limit, logger or store. What a request costs before the gateway does
// any work of its own. Listens on the port after `--port` (a free one without); prints its URL.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const option = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const answer = JSON.parse(readFileSync(option('--answer'), 'utf8'));
const app = Fastify();
app.get('/v4/get-quote', async () => answer);
const url = await app.listen({ port: Number(option('--port') ?? 0), host: '127.0.0.1' });
console.log(`listening on ${url}`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
