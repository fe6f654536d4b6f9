import net from 'node:net';

/** A request as the raw server saw it. */
export interface RecordedRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly target: string;
  /** Header names lower-cased; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** Index of the connection it came on, from 0. */
  readonly connection: number;
}

/** What the handler answers: raw bytes to write (and whether to close after), or `undefined` to never answer. */
export type RawAnswer = string | Buffer | { readonly bytes: string | Buffer; readonly close?: boolean } | undefined;

/** A raw HTTP/1.1 fixture server on 127.0.0.1, port 0. */
export interface RawServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Connections accepted so far. */
  readonly connections: () => number;
  close(): Promise<void>;
}

function parseHead(head: string): { method: string; target: string; headers: Record<string, string> } {
  const [line = '', ...rest] = head.split('\r\n');
  const [method = '', target = ''] = line.split(' ');
  const headers: Record<string, string> = {};
  for (const h of rest) {
    const colon = h.indexOf(':');
    if (colon <= 0) continue;
    const name = h.slice(0, colon).trim().toLowerCase();
    const value = h.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { method, target, headers };
}

/**
 * Starts a server that reads HTTP/1.1 requests (Content-Length bodies) and writes exactly the bytes the handler
 * returns, so tests can reproduce the rough wire of real servers byte for byte.
 */
export async function startRawServer(handler: (req: RecordedRequest, index: number) => RawAnswer): Promise<RawServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    const connection = connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = parseHead(buf.subarray(0, end).toString('latin1'));
        const length = Number(head.headers['content-length'] ?? 0);
        if (buf.length < end + 4 + length) return;
        const body = buf.subarray(end + 4, end + 4 + length);
        buf = buf.subarray(end + 4 + length);
        const req: RecordedRequest = { ...head, body: Buffer.from(body), connection };
        requests.push(req);
        const answer = handler(req, requests.length - 1);
        if (answer === undefined) continue;
        const bytes = typeof answer === 'string' || Buffer.isBuffer(answer) ? answer : answer.bytes;
        const close = typeof answer === 'object' && !Buffer.isBuffer(answer) && answer.close === true;
        if (close) socket.end(bytes);
        else socket.write(bytes);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Options of {@link httpResponse}. */
export interface ResponseSpec {
  readonly status?: number;
  /** Reason phrase; `''` writes a status line without one (`HTTP/1.1 200`). @defaultValue 'OK' */
  readonly reason?: string;
  readonly headers?: Readonly<Record<string, string>> | readonly (readonly [string, string])[];
  readonly body?: string | Buffer;
  /** Body encoding of a string body. @defaultValue 'utf8' */
  readonly encoding?: BufferEncoding;
  /** Leave out the Content-Length header. */
  readonly noLength?: boolean;
}

/** The bytes of a well-formed HTTP/1.1 response (Content-Length framing unless `noLength`). */
export function httpResponse(spec: ResponseSpec = {}): Buffer {
  const status = spec.status ?? 200;
  const reason = spec.reason ?? 'OK';
  const body =
    typeof spec.body === 'string' ? Buffer.from(spec.body, spec.encoding ?? 'utf8') : (spec.body ?? Buffer.alloc(0));
  const headers = Array.isArray(spec.headers) ? spec.headers : Object.entries(spec.headers ?? {});
  const lines = [`HTTP/1.1 ${status}${reason ? ` ${reason}` : ''}`, ...headers.map(([k, v]) => `${k}: ${v}`)];
  if (!spec.noLength) lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/** An XML 200 response (`text/xml; charset=utf-8` unless headers say otherwise). */
export function xmlResponse(body: string, headers: Readonly<Record<string, string>> = {}, status = 200): Buffer {
  return httpResponse({ status, headers: { 'Content-Type': 'text/xml; charset=utf-8', ...headers }, body });
}

/** A JSON 200 response. */
export function jsonResponse(body: unknown, headers: Readonly<Record<string, string>> = {}, status = 200): Buffer {
  return httpResponse({
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
