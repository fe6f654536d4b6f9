// The embedded reference server of `erpcert load`, in its own worker thread: the load generator and the
// server under test must not share one event loop. tsx compiles the TypeScript sources, as in bin/erpcert.mjs.
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
  parentPort.postMessage({ url: server.url });
} catch (err) {
  parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
