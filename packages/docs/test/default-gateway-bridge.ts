/**
 * Run inside a network namespace of its own (default-gateway.ts): brings its loopback up, listens
 * on 127.0.0.1:8080, passes every connection to the Unix socket of the test's proxy, and runs the
 * command given after the socket, exiting with its status.
 *
 *   node --import tsx default-gateway-bridge.ts <socket> <command> [args...]
 */
import { spawn, spawnSync } from 'node:child_process';
import { connect, createServer } from 'node:net';

const [socket, command, ...args] = process.argv.slice(2);
if (!socket || !command) throw new Error('usage: default-gateway-bridge.ts <socket> <command> [args...]');
const up = spawnSync('ip', ['link', 'set', 'lo', 'up'], { stdio: 'inherit' });
if (up.status !== 0) process.exit(up.status ?? 1);

const bridge = createServer((connection) => {
  const proxy = connect(socket);
  connection.pipe(proxy).pipe(connection);
  connection.on('error', () => proxy.destroy());
  proxy.on('error', () => connection.destroy());
});
bridge.listen(8080, '127.0.0.1', () => {
  const child = spawn(command, args, { stdio: 'inherit' });
  child.on('exit', (code, signal) => {
    bridge.close();
    process.exit(code ?? (signal ? 1 : 0));
  });
});
