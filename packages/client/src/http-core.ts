import type { IncomingHttpHeaders } from 'node:http';
import { type AuthAttempt, Authenticator } from './auth.js';
import { decodeText, parseContentType } from './charset.js';
import { type Clock, systemClock } from './clock.js';
import { type AuthOverride, type ClientConfig, DEFAULT_TIMEOUT_MS } from './config.js';
import { ConfigError, TransportError } from './errors.js';
import type { Exchange, ExchangeBody, ExchangeHeader, ExchangeThrottle } from './exchange.js';
import { Masker } from './mask.js';
import { OAuthTokenSource } from './oauth.js';
import { Pacer } from './pacer.js';
import { decideThrottle } from './retry-after.js';
import { HttpTransport, type WireFailure, type WireResponse } from './transport.js';
import { buildUrl, type QueryPair } from './url.js';

/** Options every call accepts. */
export interface CallOptions {
  /** Overrides the client's timeout for this call. */
  readonly timeoutMs?: number;
  /** Authenticates this call differently, bypassing the client's credentials and session. */
  readonly auth?: AuthOverride;
  readonly signal?: AbortSignal;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** One request as the API layers describe it. */
export interface SendSpec {
  readonly api: 'rest' | 'portal' | 'oauth';
  readonly operation: string;
  readonly register?: string;
  readonly method: string;
  /** Path below the base URL, starting with `/`. */
  readonly path: string;
  readonly query?: readonly QueryPair[];
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  readonly options?: CallOptions;
  /** An absolute URL instead of base URL + path (the OAuth token endpoint). */
  readonly absoluteUrl?: string;
  /** Send the session-opening Basic request even when a session is open (explicit login). */
  readonly forceBasic?: boolean;
}

/** A complete HTTP response, before any ERP-level decoding. */
export interface RawResponse {
  readonly status: number;
  /** Reason phrase, empty when the status line had none. */
  readonly statusText: string;
  readonly httpVersion: string;
  /** Lower-cased header map. */
  readonly headers: IncomingHttpHeaders;
  /** Headers in wire order, unmasked. */
  readonly rawHeaders: readonly ExchangeHeader[];
  readonly bytes: Buffer;
  /** The body decoded by the response charset (UTF-8 if valid, else Latin-1, when there is none). */
  readonly text: string;
  /** The charset the text was decoded with. */
  readonly charset: string;
  /** MIME type of the Content-Type header, lower case, without parameters. */
  readonly mimeType: string;
  /** The request and response with secrets masked (built on first access). */
  readonly exchange: Exchange;
  /** First value of a response header, by case-insensitive name. */
  header(name: string): string | undefined;
}

const DEFAULT_MAX_RECORDED = 1024 * 1024;

function looksTextual(bytes: Buffer): boolean {
  const probe = bytes.subarray(0, 4096);
  for (const b of probe) if (b < 0x09 || (b > 0x0d && b < 0x20) || b === 0x7f) return false;
  return true;
}

/**
 * The shared machinery of both APIs: URL building, credentials and session, pacing, the node:http transport,
 * and exchange recording with masking.
 */
export class HttpCore {
  readonly baseUrl: URL;
  readonly masker = new Masker();
  readonly auth: Authenticator;
  readonly clock: Clock;
  readonly #config: ClientConfig;
  readonly #pacer: Pacer;
  readonly #transport: HttpTransport;
  #seq = 0;

  constructor(config: ClientConfig) {
    try {
      this.baseUrl = new URL(config.baseUrl);
    } catch {
      throw new ConfigError(`baseUrl is not an absolute URL: ${JSON.stringify(config.baseUrl)}`);
    }
    if (this.baseUrl.protocol !== 'http:' && this.baseUrl.protocol !== 'https:')
      throw new ConfigError(`baseUrl must be http or https: ${config.baseUrl}`);
    this.#config = config;
    this.clock = config.clock ?? systemClock;
    this.#pacer = new Pacer(config.pacing, this.clock);
    this.#transport = new HttpTransport({
      ...(config.maxSockets !== undefined ? { maxSockets: config.maxSockets } : {}),
      ...(config.keepAlive !== undefined ? { keepAlive: config.keepAlive } : {}),
      ...(config.connectGuard ? { connectGuard: config.connectGuard } : {}),
    });
    const oauth =
      config.auth && 'oauth' in config.auth
        ? new OAuthTokenSource(
            config.auth.oauth,
            async (url, headers, body) => {
              const r = await this.send({
                api: 'oauth',
                operation: 'oauth-token',
                method: 'POST',
                path: '',
                absoluteUrl: url,
                headers,
                body: Buffer.from(body, 'utf8'),
              });
              return { status: r.status, statusText: r.statusText, text: r.text, exchange: r.exchange };
            },
            this.masker,
            this.clock,
          )
        : undefined;
    this.auth = new Authenticator(config, this.masker, oauth);
  }

  /**
   * Sends one request with the client's credentials; a refused session is re-opened with Basic once, a refused
   * OAuth token is renewed once. Throws `TransportError` when no response arrives; never looks at the body.
   */
  async send(spec: SendSpec): Promise<RawResponse> {
    const url = spec.absoluteUrl ? new URL(spec.absoluteUrl) : buildUrl(this.baseUrl, spec.path, spec.query);
    const override = spec.options?.auth;
    let attempt = await this.auth.prepare(spec.api, spec.operation, override, spec.forceBasic);
    let res = await this.#exchange(spec, url, attempt);
    if (this.auth.sessionRefused(attempt, res.status) || this.auth.tokenRefused(attempt, res.status)) {
      attempt = await this.auth.prepare(spec.api, spec.operation, override, attempt.via === 'session');
      res = await this.#exchange(spec, url, attempt);
    }
    return res;
  }

  /**
   * One request, sent again while the answer is throttled (429 or 503 with `Retry-After`) and the client's
   * bounds allow (retry-after.ts). Every answer, the throttled ones included, reaches the exchange observer,
   * marked with what the client did about it.
   */
  async #exchange(spec: SendSpec, url: URL, attempt: AuthAttempt): Promise<RawResponse> {
    for (let retries = 0; ; retries++) {
      const { raw, exchange } = await this.#sendOnce(spec, url, attempt);
      const decision = decideThrottle(
        raw.status,
        raw.header('retry-after'),
        retries,
        this.#config.retryAfter,
        Date.now(),
      );
      const throttle: ExchangeThrottle | undefined =
        decision.action === 'retry'
          ? { outcome: 'retried', waitMs: decision.waitMs }
          : decision.action === 'give-up'
            ? { outcome: 'gave-up', reason: decision.reason }
            : undefined;
      const marked = throttle ? { ...exchange(), throttle } : undefined;
      if (this.#config.onExchange) this.#observe(marked ?? exchange());
      // the answer handed on carries the mark too: an error built from it says the client gave up on a throttle
      if (decision.action !== 'retry') return marked ? { ...raw, exchange: marked } : raw;
      await this.clock.sleep(decision.waitMs);
      if (spec.options?.signal?.aborted) return raw;
    }
  }

  async #sendOnce(
    spec: SendSpec,
    url: URL,
    attempt: AuthAttempt,
  ): Promise<{ raw: RawResponse; exchange: () => Exchange }> {
    const headers: Record<string, string> = {
      'User-Agent': this.#config.userAgent ?? 'erpcert-client',
      // real servers answer in Latin-1 unless the request mentions UTF-8 (DESIGN.md "the wire is rough")
      'Accept-Charset': 'utf-8',
      ...spec.headers,
      ...spec.options?.headers,
      ...attempt.headers,
    };
    if (spec.api !== 'oauth') await this.#pacer.acquire();
    const id = ++this.#seq;
    const startedAt = new Date().toISOString();
    const t0 = this.clock.now();
    const context = { operation: spec.operation, ...(spec.register ? { register: spec.register } : {}) };
    let wire: WireResponse;
    try {
      wire = await this.#transport.send({
        method: spec.method,
        url,
        headers,
        ...(spec.body ? { body: spec.body } : {}),
        timeoutMs: spec.options?.timeoutMs ?? this.#config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(spec.options?.signal ? { signal: spec.options.signal } : {}),
      });
    } catch (err) {
      this.auth.settle(attempt, undefined, false);
      const f = err as WireFailure;
      const exchange = this.#record(id, spec, url, headers, startedAt, t0, undefined, f.message);
      this.#observe(exchange);
      throw new TransportError(f.reason ?? 'other', f.message, { ...context, exchange }, f.code, err);
    }
    const ok = wire.status >= 200 && wire.status < 300;
    this.auth.settle(attempt, wire.headers['set-cookie'], ok);
    const ct = parseContentType(wire.headers['content-type']);
    const { text, charset } = decodeText(wire.body, ct.charset);
    let exchange: Exchange | undefined;
    const durationEnd = this.clock.now();
    const record = () => {
      exchange ??= this.#record(id, spec, url, headers, startedAt, t0, wire, undefined, durationEnd);
      return exchange;
    };
    const raw: RawResponse = {
      status: wire.status,
      statusText: wire.statusText,
      httpVersion: wire.httpVersion,
      headers: wire.headers,
      rawHeaders: wire.rawHeaders,
      bytes: wire.body,
      text,
      charset,
      mimeType: ct.mimeType,
      get exchange() {
        return record();
      },
      header(name: string) {
        const v = wire.headers[name.toLowerCase()];
        return Array.isArray(v) ? v[0] : v;
      },
    };
    return { raw, exchange: record };
  }

  #observe(exchange: Exchange): void {
    try {
      this.#config.onExchange?.(exchange);
    } catch {
      // an observer must not break the call it observes
    }
  }

  #recordBody(bytes: Buffer, contentType: string | undefined): ExchangeBody {
    const max = this.#config.maxRecordedBodyBytes ?? DEFAULT_MAX_RECORDED;
    const { mimeType, charset } = parseContentType(contentType);
    const cut = bytes.length > max ? bytes.subarray(0, max) : bytes;
    const truncated = bytes.length > max ? { truncated: true as const } : {};
    if (looksTextual(cut)) {
      const text = decodeText(cut, charset).text;
      return { mimeType, text: this.masker.body(text, mimeType), size: bytes.length, ...truncated };
    }
    return { mimeType, text: cut.toString('base64'), encoding: 'base64', size: bytes.length, ...truncated };
  }

  #record(
    id: number,
    spec: SendSpec,
    url: URL,
    headers: Record<string, string>,
    startedAt: string,
    t0: number,
    wire: WireResponse | undefined,
    error: string | undefined,
    t1 = this.clock.now(),
  ): Exchange {
    const reqHeaders = Object.entries(headers).map(([name, value]) => ({ name, value }));
    if (spec.body) reqHeaders.push({ name: 'Content-Length', value: String(spec.body.length) });
    const reqBody = spec.body ? this.#recordBody(spec.body, headers['Content-Type']) : undefined;
    return {
      id,
      api: spec.api,
      operation: spec.operation,
      ...(spec.register ? { register: spec.register } : {}),
      startedAt,
      durationMs: Math.max(0, t1 - t0),
      request: {
        method: spec.method,
        url: this.masker.url(url.toString()),
        headers: this.masker.headers(reqHeaders),
        ...(reqBody ? { body: reqBody } : {}),
      },
      ...(wire
        ? {
            response: {
              status: wire.status,
              statusText: wire.statusText,
              httpVersion: wire.httpVersion,
              headers: this.masker.headers(wire.rawHeaders),
              body: this.#recordBody(wire.body, wire.headers['content-type']),
            },
          }
        : {}),
      ...(error !== undefined ? { error: this.masker.scrub(error) } : {}),
    };
  }

  /** Closes the connections of this client. */
  close(): void {
    this.#transport.close();
  }
}
