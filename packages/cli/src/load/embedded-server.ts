import { Worker } from 'node:worker_threads';
import { statCpuMicros } from '@erpcert/load-k6';

/** The embedded reference server of a load run. */
export interface EmbeddedServer {
  readonly url: string;
  /**
   * CPU microseconds the server's thread has used so far (Linux: /proc/<pid>/task/<tid>/stat), or undefined where
   * it cannot be read: the target's side of the machine's CPU in a saturation step.
   */
  cpuMicros(): number | undefined;
  /** Closes the server and ends its thread. */
  close(): Promise<void>;
}

/** The embedded server did not start. */
export class EmbeddedServerError extends Error {
  override readonly name = 'EmbeddedServerError';
}

/**
 * Starts `@erpcert/refserver` with `seedSize` demo records (TRVc journal entries: `seedSize`) on 127.0.0.1 and a
 * free port, in a worker thread of this process, so that the server has its own event loop beside the load
 * generator (autocannon runs in the main thread).
 */
export async function startEmbeddedServer(options: {
  seedSize: number;
  user: string;
  password: string;
  timeoutMs?: number;
}): Promise<EmbeddedServer> {
  const worker = new Worker(new URL('./embedded-server-worker.mjs', import.meta.url), {
    workerData: { seedSize: options.seedSize, user: options.user, password: options.password },
  });
  const { url, cpuStat } = await new Promise<{ url: string; cpuStat?: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new EmbeddedServerError(`the embedded server did not start within ${options.timeoutMs ?? 120_000} ms`));
    }, options.timeoutMs ?? 120_000);
    worker.once('message', (m: { url?: string; cpuStat?: string; error?: string }) => {
      clearTimeout(timer);
      if (m.url) resolve({ url: m.url, ...(m.cpuStat ? { cpuStat: m.cpuStat } : {}) });
      else {
        void worker.terminate();
        reject(new EmbeddedServerError(`the embedded server did not start: ${m.error ?? 'no reason given'}`));
      }
    });
    worker.once('error', (err) => {
      clearTimeout(timer);
      reject(new EmbeddedServerError(`the embedded server thread failed: ${err.message}`));
    });
  });
  let closing: Promise<void> | undefined;
  return {
    url,
    cpuMicros: () => (cpuStat === undefined ? undefined : statCpuMicros(cpuStat)),
    close() {
      closing ??= new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          void worker.terminate().then(() => resolve());
        };
        const timer = setTimeout(done, 5000);
        worker.once('message', done);
        worker.once('exit', done);
        worker.postMessage('close');
      });
      return closing;
    },
  };
}
