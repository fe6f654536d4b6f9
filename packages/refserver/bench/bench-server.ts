// The server side of the benchmark: a separate process, so that client and server do not share one
// event loop. Each line on stdin asks for its CPU time so far (one JSON line on stdout).
import { startServer } from '../src/index.js';

const seed = Number(process.argv[2] ?? 0);
const server = await startServer({ port: 0, seed, log: (l) => process.stderr.write(`${l}\n`) });
process.stdout.write(`${server.url}\n`);
process.stdin.on('data', () => {
  const { user, system } = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ cpuMs: (user + system) / 1000 })}\n`);
});
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
