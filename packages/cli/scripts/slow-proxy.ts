/**
 * A slow server for the benchmarks: a proxy on 127.0.0.1 that answers one request at a time, each after
 * `delayMs` (a single-threaded ERP). Requests queue in arrival order; the next one is not forwarded before the
 * previous answer is complete. It counts the requests it answered.
 */
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running slow proxy. */
export interface SlowProxy {
  readonly url: string;
  /** Requests answered so far. */
  readonly requests: () => number;
  close(): Promise<void>;
}

/** Starts the proxy in front of `target` (a base URL). */
export async function startSlowProxy(
  target: string,
  delayMs: number,
  /** Called with each request as it arrives (a log of what a run sends). */
  onRequest?: (method: string, url: string) => void,
): Promise<SlowProxy> {
  const upstream = new URL(target);
  let answered = 0;
  let queue: Promise<void> = Promise.resolve();

  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse) =>
    new Promise<void>((done) => {
      const headers = { ...req.headers, host: upstream.host, 'content-length': String(body.length) };
      delete headers['transfer-encoding'];
      const out = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
        (up) => {
          const chunks: Buffer[] = [];
          up.on('data', (c: Buffer) => chunks.push(c));
          up.on('end', () => {
            const bytes = Buffer.concat(chunks);
            const h = { ...up.headers, 'content-length': String(bytes.length) };
            delete h['transfer-encoding'];
            res.writeHead(up.statusCode ?? 502, h);
            res.end(bytes, () => done());
          });
          up.on('error', () => done());
        },
      );
      out.on('error', (err) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`slow proxy: ${err.message}`);
        done();
      });
      out.end(body);
    });

  const server = createServer((req, res) => {
    onRequest?.(req.method ?? '', req.url ?? '');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      queue = queue.then(async () => {
        await new Promise((r) => setTimeout(r, delayMs));
        await forward(req, body, res);
        answered++;
      });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
