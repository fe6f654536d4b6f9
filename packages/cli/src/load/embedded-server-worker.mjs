// The embedded reference server of `erpcert load`, in its own worker thread: the load generator and the
// server under test must not share one event loop. tsx compiles the TypeScript sources, as in bin/erpcert.mjs.
import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
try {
  const { startServer } = await import('@erpcert/refserver');
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    seed: workerData.seedSize,
    user: workerData.user,
    password: workerData.password,
    log: () => {},
  });
  parentPort.on('message', async (message) => {
    if (message !== 'close') return;
    await server.close();
    parentPort.postMessage({ closed: true });
  });
  // this thread's own /proc stat file (Linux: /proc/thread-self is "<pid>/task/<tid>"), so that the load run can
  // read the target's CPU time apart from the generator's; absent elsewhere
  let cpuStat;
  try {
    cpuStat = `/proc/${readlinkSync('/proc/thread-self')}/stat`;
  } catch {
    cpuStat = undefined;
  }
  parentPort.postMessage({ url: server.url, cpuStat });
} catch (err) {
  parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
