// The ceiling of this machine for the bench: node:http answering a fixed JSON body (the shape of a
// get-order answer), in a process of its own, on the port after `--port` (a free one without). Prints the URL it listens on.
import { createServer } from 'node:http';

const body = JSON.stringify({
  id: '8d3c7a0e-5f1b-4b6e-9a51-2f0c7e4d9b12',
  status: { inProgress: { pending_btc_payment: null, refund_tx: null } },
});
const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(body));
const portAt = process.argv.indexOf('--port');
server.listen(portAt > 0 ? Number(process.argv[portAt + 1]) : 0, '127.0.0.1', () =>
  console.log(`listening on http://127.0.0.1:${server.address().port}`),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
