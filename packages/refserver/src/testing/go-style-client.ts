import { connect } from 'node:net';

/** An answer as a Go net/http client sees it: status, headers (lower-case), the body as text. */
export interface GoAnswer {
  readonly status: number;
  readonly statusLine: string;
  readonly headers: ReadonlyMap<string, string>;
  readonly text: string;
}

/**
 * A client that sends what public Go integration code for this ERP sends (issue 10): Basic auth, the company code in
 * the path (`/api/<N>/...`), `Accept: application/json`, form bodies as `application/x-www-form-urlencoded;
 * charset=UTF-8` with spaces as `%20` (`strings.ReplaceAll(values.Encode(), "+", "%20")`), one request per
 * connection. It reads answers as Go does: a status line with or without a reason phrase, `Transfer-Encoding:
 * chunked` winning over `Content-Length`, a body in UTF-8 unless the Content-Type names no charset (then Latin-1).
 */
export class GoStyleClient {
  readonly #port: number;
  readonly #auth: string;

  constructor(port: number, user: string, password: string) {
    this.#port = port;
    this.#auth = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }

  /** `url.Values` encoded with `%20` for spaces, in the order given. */
  static form(pairs: readonly (readonly [string, string])[]): string {
    return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  }

  get(path: string): Promise<GoAnswer> {
    return this.#send('GET', path);
  }

  postForm(path: string, pairs: readonly (readonly [string, string])[]): Promise<GoAnswer> {
    return this.#send('POST', path, 'application/x-www-form-urlencoded; charset=UTF-8', GoStyleClient.form(pairs));
  }

  patchForm(path: string, pairs: readonly (readonly [string, string])[]): Promise<GoAnswer> {
    return this.#send('PATCH', path, 'application/x-www-form-urlencoded; charset=UTF-8', GoStyleClient.form(pairs));
  }

  postJson(path: string, body: unknown): Promise<GoAnswer> {
    return this.#send('POST', path, 'application/json; charset=UTF-8', JSON.stringify(body));
  }

  #send(method: string, path: string, type?: string, body?: string): Promise<GoAnswer> {
    const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(body, 'utf8');
    const head = [
      `${method} ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${this.#port}`,
      'User-Agent: Go-http-client/1.1',
      `Authorization: ${this.#auth}`,
      'Accept: application/json',
      ...(type ? [`Content-Type: ${type}`, `Content-Length: ${payload.length}`] : []),
      'Connection: close',
      'Accept-Encoding: identity',
    ];
    return new Promise((resolve, reject) => {
      const socket = connect(this.#port, '127.0.0.1');
      const got: Buffer[] = [];
      socket.on('data', (d) => got.push(d));
      socket.on('error', reject);
      socket.on('close', () => {
        try {
          resolve(parseAnswer(Buffer.concat(got)));
        } catch (err) {
          reject(err);
        }
      });
      socket.on('connect', () => socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), payload])));
    });
  }
}

function parseAnswer(bytes: Buffer): GoAnswer {
  const split = bytes.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`no HTTP answer: ${bytes.toString('latin1').slice(0, 200)}`);
  const lines = bytes.subarray(0, split).toString('latin1').split('\r\n');
  const statusLine = lines[0]!;
  const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine);
  if (!m) throw new Error(`bad status line ${statusLine}`);
  const headers = new Map<string, string>();
  for (const l of lines.slice(1))
    headers.set(l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim());
  let rest = bytes.subarray(split + 4);
  let body = rest;
  if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) {
    const parts: Buffer[] = [];
    for (;;) {
      const eol = rest.indexOf('\r\n');
      const size = Number.parseInt(rest.subarray(0, eol).toString('latin1'), 16);
      if (!(size > 0)) break;
      parts.push(rest.subarray(eol + 2, eol + 2 + size));
      rest = rest.subarray(eol + 2 + size + 2);
    }
    body = Buffer.concat(parts);
  } else if (headers.has('content-length')) body = rest.subarray(0, Number(headers.get('content-length')));
  const utf8 = /charset\s*=\s*"?utf-?8/i.test(headers.get('content-type') ?? '');
  return { status: Number(m[1]), statusLine, headers, text: body.toString(utf8 ? 'utf8' : 'latin1') };
}
