import { Agent, request } from 'node:http';
import { connect } from 'node:net';

/** One finished request: status, body size and wall time. */
export interface Sample {
  readonly status: number;
  readonly bytes: number;
  readonly ms: number;
  readonly body: Buffer;
}

/** A keep-alive HTTP client for the benchmark. */
export class BenchClient {
  readonly #agent: Agent;
  readonly #base: URL;
  readonly #auth: string;

  constructor(baseUrl: string, concurrency: number) {
    this.#agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    this.#base = new URL(baseUrl);
    this.#auth = `Basic ${Buffer.from('erpcert:erpcert').toString('base64')}`;
  }

  send(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Sample> {
    const t0 = performance.now();
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.#base.hostname,
          port: this.#base.port,
          method,
          path,
          agent: this.#agent,
          headers: {
            authorization: this.#auth,
            ...(body !== undefined
              ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) }
              : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const all = Buffer.concat(chunks);
            resolve({ status: res.statusCode ?? 0, bytes: all.length, ms: performance.now() - t0, body: all });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Sends `total` requests from `concurrency` workers; answers requests per second. Any error body fails. */
  async throughput(
    total: number,
    concurrency: number,
    make: (i: number) => [string, string, string?],
  ): Promise<number> {
    let next = 0;
    const t0 = performance.now();
    const worker = async () => {
      while (next < total) {
        const i = next++;
        const [method, path, body] = make(i);
        const s = await this.send(method, path, body);
        if (s.status !== 200 || s.body.includes('<error'))
          throw new Error(`request ${i} failed: ${s.status} ${s.body}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return total / ((performance.now() - t0) / 1000);
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * A light load generator for write throughput: raw keep-alive sockets with pre-serialised requests
 * (as wrk or autocannon do), so that on a 2-core machine the client leaves the server its core.
 * Expects Content-Length framed responses (the server without --quirks).
 */
export async function rawThroughput(
  baseUrl: string,
  total: number,
  connections: number,
  request: { method: string; path: string; body: string },
): Promise<number> {
  const url = new URL(baseUrl);
  const body = Buffer.from(request.body);
  const bytes = Buffer.concat([
    Buffer.from(
      `${request.method} ${request.path} HTTP/1.1\r\nHost: ${url.host}\r\n` +
        `Authorization: Basic ${Buffer.from('erpcert:erpcert').toString('base64')}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`,
    ),
    body,
  ]);
  let started = 0;
  const t0 = performance.now();
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname);
      let pending: Buffer = Buffer.alloc(0);
      const send = () => {
        if (started >= total) {
          socket.end();
          resolve();
          return;
        }
        started++;
        socket.write(bytes);
      };
      socket.on('connect', send);
      socket.on('error', reject);
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        for (;;) {
          const end = pending.indexOf('\r\n\r\n');
          if (end < 0) return;
          const head = pending.subarray(0, end).toString('latin1');
          const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (pending.length < end + 4 + length) return;
          const answer = pending.subarray(end + 4, end + 4 + length);
          pending = pending.subarray(end + 4 + length);
          if (!head.startsWith('HTTP/1.1 200') || answer.includes('<error')) {
            reject(new Error(`write failed: ${head.split('\r\n')[0]} ${answer.toString()}`));
            socket.destroy();
            return;
          }
          send();
        }
      });
    });
  await Promise.all(Array.from({ length: connections }, one));
  return total / ((performance.now() - t0) / 1000);
}
