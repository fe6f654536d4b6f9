import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { GuardedLookup } from '@erpcert/contract';
import type { TransportFailure } from './errors.js';
import type { ExchangeHeader } from './exchange.js';

/** A request as the transport sends it. */
export interface WireRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  /** Whole-exchange timeout in milliseconds (connect, send, wait, receive). */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** A complete response. */
export interface WireResponse {
  readonly status: number;
  readonly statusText: string;
  readonly httpVersion: string;
  /** Lower-cased header map as node parsed it (`set-cookie` is an array). */
  readonly headers: http.IncomingHttpHeaders;
  /** Headers in wire order, duplicates kept. */
  readonly rawHeaders: readonly ExchangeHeader[];
  readonly body: Buffer;
}

/** Why the transport got no response; the client turns it into a `TransportError`. */
export class WireFailure extends Error {
  constructor(
    readonly reason: TransportFailure,
    message: string,
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Options of {@link HttpTransport}. */
export interface TransportOptions {
  /** Concurrent connections per origin. @defaultValue 16 */
  readonly maxSockets?: number;
  /** Reuse connections (HTTP keep-alive). @defaultValue true */
  readonly keepAlive?: boolean;
  /** Checks every address before a connection is made (the hub's SSRF guard, `@erpcert/contract` target-guard). */
  readonly connectGuard?: ConnectGuard;
}

/**
 * What the transport asks before it connects: a `lookup` that resolves a host name and refuses a connection to an
 * address it does not allow (the address checked is the address connected to: no DNS rebinding in between), and
 * the same judgement of an address literal, which node:net connects to without any lookup.
 */
export interface ConnectGuard {
  readonly lookup: GuardedLookup;
  /** Why an address may not be connected to, or undefined when it may. */
  refusal(address: string): string | undefined;
}

/** The code of a connection the {@link ConnectGuard} refused. */
export const CONNECT_REFUSED_BY_GUARD = 'ETARGETREFUSED';

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

function classify(err: NodeJS.ErrnoException): WireFailure {
  if (err instanceof WireFailure) return err;
  const code = err.code;
  if (code === CONNECT_REFUSED_BY_GUARD) return new WireFailure('other', `refused: ${err.message}`, code);
  if (code === 'ECONNREFUSED') return new WireFailure('refused', err.message, code, { cause: err });
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new WireFailure('dns', err.message, code, { cause: err });
  if (code === 'ECONNRESET' || code === 'EPIPE' || err.message === 'socket hang up')
    return new WireFailure('reset', err.message, code ?? 'ECONNRESET', { cause: err });
  if (code?.startsWith('HPE_')) return new WireFailure('malformed', err.message, code, { cause: err });
  if (code === 'ABORT_ERR' || err.name === 'AbortError') return new WireFailure('aborted', err.message, code);
  return new WireFailure('other', err.message, code, { cause: err });
}

function pairs(raw: readonly string[]): ExchangeHeader[] {
  const out: ExchangeHeader[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push({ name: raw[i]!, value: raw[i + 1]! });
  return out;
}

/**
 * HTTP/1.1 over node:http with keep-alive and the lenient parser (`insecureHTTPParser`). Measured on Node 20
 * (README "Transport"): node:http and fetch both accept a status line without reason phrase and an empty 403,
 * but only node:http with `insecureHTTPParser` accepts a response with both `Content-Length` and
 * `Transfer-Encoding: chunked` (llhttp strict mode and undici refuse it), so that is the transport.
 */
export class HttpTransport {
  readonly #http: http.Agent;
  readonly #https: https.Agent;
  readonly #guard: ConnectGuard | undefined;

  constructor(options: TransportOptions = {}) {
    this.#guard = options.connectGuard;
    const common = {
      keepAlive: options.keepAlive ?? true,
      maxSockets: options.maxSockets ?? 16,
      // the agent hands `lookup` to net.connect for every new socket
      ...(options.connectGuard ? { lookup: options.connectGuard.lookup } : {}),
    };
    this.#http = new http.Agent(common);
    this.#https = new https.Agent(common);
  }

  /** Sends one request; retries once when a reused keep-alive connection was reset before any answer. */
  async send(request: WireRequest): Promise<WireResponse> {
    try {
      return await this.#once(request);
    } catch (err) {
      const failure = err as WireFailure & { reusedSocket?: boolean };
      if (failure.reason === 'reset' && failure.reusedSocket && IDEMPOTENT.has(request.method)) {
        return this.#once(request);
      }
      throw err;
    }
  }

  #once(request: WireRequest): Promise<WireResponse> {
    const { url } = request;
    const secure = url.protocol === 'https:';
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // node:net connects to an address literal without a lookup: the guard judges it here
    const literalRefused = this.#guard && isIP(hostname) ? this.#guard.refusal(hostname) : undefined;
    if (literalRefused !== undefined)
      return Promise.reject(new WireFailure('other', `refused: ${literalRefused}`, CONNECT_REFUSED_BY_GUARD));
    return new Promise<WireResponse>((resolve, reject) => {
      let settled = false;
      const fail = (err: WireFailure, reused = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        Object.assign(err, { reusedSocket: reused });
        reject(err);
      };
      const options: http.RequestOptions = {
        method: request.method,
        protocol: url.protocol,
        hostname,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        headers: { ...request.headers, ...(request.body ? { 'Content-Length': String(request.body.length) } : {}) },
        agent: secure ? this.#https : this.#http,
        insecureHTTPParser: true,
        ...(request.signal ? { signal: request.signal } : {}),
      };
      const req = (secure ? https : http).request(options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => fail(classify(e)));
        res.on('aborted', () => fail(new WireFailure('reset', 'the connection closed mid-body', 'ECONNRESET')));
        res.on('end', () => {
          if (settled) return;
          if (!res.complete) {
            fail(new WireFailure('reset', 'the connection closed mid-body', 'ECONNRESET'));
            return;
          }
          settled = true;
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            httpVersion: `HTTP/${res.httpVersion}`,
            headers: res.headers,
            rawHeaders: pairs(res.rawHeaders),
            body: Buffer.concat(chunks),
          });
        });
      });
      const timer = setTimeout(() => {
        const err = new WireFailure('timeout', `no complete response within ${request.timeoutMs} ms`);
        fail(err);
        req.destroy(err);
      }, request.timeoutMs);
      req.on('error', (e) => fail(classify(e), req.reusedSocket));
      req.end(request.body);
    });
  }

  /** Destroys every connection, idle or in use. */
  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}
