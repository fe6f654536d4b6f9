import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A deliberately slow target: a proxy that lets matching requests through at a fixed rate. */
export interface ThrottleProxy {
  readonly url: string;
  /** Matching requests passed on so far, and refused (refuse mode). */
  readonly stats: { passed: number; refused: number; queued: number };
  close(): Promise<void>;
}

export interface ThrottleOptions {
  /** Base URL of the real target. */
  readonly target: string;
  /** Matching requests per second let through. */
  readonly ratePerSecond: number;
  /** Which requests are throttled. @defaultValue form POSTs of invoices (`POST /api/<n>/IVVc`) */
  readonly match?: (method: string, path: string) => boolean;
  /** `queue` holds a request until its turn; `refuse` answers 503 when the rate is used up. @defaultValue 'queue' */
  readonly mode?: 'queue' | 'refuse';
}

const invoicePosts = (method: string, path: string) => method === 'POST' && /^\/api\/\d+\/IVVc(\?|$)/.test(path);

/**
 * Starts the proxy on 127.0.0.1 and a free port. Requests that match get one slot each, `1000 / rate` ms apart
 * (no bursts); everything else passes at once. Bodies and headers are passed through unchanged.
 */
export async function startThrottleProxy(o: ThrottleOptions): Promise<ThrottleProxy> {
  const target = new URL(o.target);
  const match = o.match ?? invoicePosts;
  const interval = 1000 / o.ratePerSecond;
  const stats = { passed: 0, refused: 0, queued: 0 };
  let nextSlot = 0;
  const timers = new Set<NodeJS.Timeout>();

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${err.message}`);
    });
    upstream.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (!match(req.method ?? 'GET', req.url ?? '/')) return forward(req, res, body);
      const now = Date.now();
      const slot = Math.max(now, nextSlot);
      if (slot > now && o.mode === 'refuse') {
        stats.refused++;
        res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('throttled');
        return;
      }
      nextSlot = slot + interval;
      stats.passed++;
      if (slot === now) return forward(req, res, body);
      stats.queued++;
      const timer = setTimeout(() => {
        timers.delete(timer);
        forward(req, res, body);
      }, slot - now);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats,
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
