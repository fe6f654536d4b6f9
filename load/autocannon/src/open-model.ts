/// <reference path="./autocannon.d.ts" />

import { isIP, isIPv6 } from 'node:net';
import type { Latency } from '@erpcert/load-k6';
import autocannon from 'autocannon';
import type { CheckFailure } from './checks.js';
import { LatencyHistogram } from './latency-histogram.js';

/** Per-connection state a request sequence keeps between its requests (autocannon's `context`). */
export type RequestContext = Record<string, unknown>;

/** One request of a scenario's sequence; each connection loops over the sequence in order. */
export interface ScenarioRequest {
  readonly method: 'GET' | 'POST';
  /** Builds the request just before it is sent (precomputed bodies are handed out here). */
  build(ctx: RequestContext): { path: string; headers: Record<string, string>; body?: string };
  /** Checks the response; `ctx` is what `build` of this sequence wrote. */
  check(status: number, body: string, headers: Record<string, string | string[]>, ctx: RequestContext): CheckFailure;
  /** A passing response of this request completes one operation (the last request of a sequence). */
  readonly completesOperation: boolean;
}

/** What one bounded autocannon run measured. */
export interface RunMeasurement {
  /** Operations the schedule offered (rate x seconds); for a plain run, the requests asked for. */
  readonly offered: number;
  /** Requests sent (every build). */
  readonly sent: number;
  /** Operations started (inside the window or not). */
  readonly operations: number;
  /** Requests of operations that could not start inside the window (the open model's dropped iterations). */
  readonly dropped: number;
  /** Operations whose every check passed and that started inside the window. */
  readonly succeeded: number;
  /** Failed checks plus transport errors and timeouts. */
  readonly errors: number;
  /** The most frequent failure reasons with their counts. */
  readonly failures: readonly { readonly reason: string; readonly count: number }[];
  /** Percentiles of every response's time, in ms, from an HDR histogram built as autocannon's (latency-histogram.ts). */
  readonly latencyMs: Latency;
  /** Sum of the response times of all responses, ms. */
  readonly responseMsTotal: number;
  /** Bytes received (headers included). */
  readonly bytes: number;
  readonly responses: number;
  /** Response checks that held and that failed (a timeout has no response to check). */
  readonly checks: { readonly passes: number; readonly fails: number };
  /** Seconds from the first request to the end of the run. */
  readonly wallSeconds: number;
  /** True when the hard stop or the abort signal ended the run. */
  readonly stopped: boolean;
}

export interface RunPlan {
  /** `http(s)://host:port` of the target, as given. */
  readonly origin: string;
  /** Connect here instead of resolving the origin's host (LoadRunOptions.connectAddress). */
  readonly connectAddress?: string;
  readonly sequence: readonly ScenarioRequest[];
  /** Operations per second; omit for as fast as the connections go. */
  readonly rate?: number;
  /** Seconds of offered load (with `rate`). */
  readonly seconds?: number;
  /** Total requests for a plain run (without `rate`). */
  readonly amount?: number;
  /** Requests per second per connection for a paced plain run (the read pause). */
  readonly connectionRate?: number;
  readonly connections: number;
  readonly timeoutSeconds: number;
  readonly signal?: AbortSignal;
}

/**
 * Connections for an open-model run at `rate` operations per second: the largest divisor of the rate up to
 * `max`, so that every connection gets the same whole rate and the same number of operations (autocannon
 * spreads `overallRate` and `amount` over the connections separately; unequal shares would end some
 * connections late and count their operations as dropped).
 */
export function connectionsFor(rate: number, max: number): number {
  for (let c = Math.min(rate, Math.max(1, max)); c > 1; c--) if (rate % c === 0) return c;
  return 1;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Where autocannon connects for `origin`: the origin itself, or with `connectAddress` the address in its place, the
 * origin's `host` as the Host header and its name as the TLS server name (autocannon 9 takes `servername`, and a
 * request's own `host` header stands for the one it would write; lib/httpRequestBuilder.js), so no connection
 * resolves the name.
 */
export function connectionOf(
  origin: string,
  connectAddress?: string,
): { url: string; host?: string; servername?: string } {
  if (connectAddress === undefined) return { url: origin };
  const given = new URL(origin);
  const to = new URL(origin);
  to.hostname = isIPv6(connectAddress) ? `[${connectAddress}]` : connectAddress;
  const name = given.hostname.replace(/^\[(.*)\]$/, '$1');
  return { url: to.origin, host: given.host, ...(isIP(name) ? {} : { servername: name }) };
}

/** The parts of autocannon 9's http client the open model touches (lib/httpClient.js). */
interface RateClient {
  rate: number;
  on(event: 'request' | 'timeout' | 'response', listener: () => void): void;
}

/**
 * Runs one bounded autocannon instance. With `rate`, it is an open model: `rate x seconds` operations are
 * scheduled on whole per-second windows (autocannon's `overallRate`); an operation that cannot start before the
 * window ends is dropped, and only operations started inside the window and passing every check count as
 * achieved. A hard stop (`seconds + timeout + 2`) bounds the run whatever the target does.
 */
export async function runPlan(plan: RunPlan): Promise<RunMeasurement> {
  const opsPerPass = plan.sequence.filter((r) => r.completesOperation).length;
  if (opsPerPass === 0) throw new Error('a request sequence must complete at least one operation');
  const requestsPerOp = plan.sequence.length / opsPerPass;
  const rate = plan.rate;
  const seconds = plan.seconds ?? 0;
  const amount =
    rate !== undefined ? Math.round(rate * seconds * requestsPerOp) : (plan.amount ?? plan.sequence.length);
  const offeredOps = Math.round(amount / requestsPerOp);
  const started = performance.now();
  const windowEnd = rate !== undefined ? started + seconds * 1000 : Number.POSITIVE_INFINITY;
  let sent = 0;
  let opsStartedInWindow = 0;
  let operations = 0;
  let succeeded = 0;
  let failed = 0;
  let bytes = 0;
  let responses = 0;
  let responseMsTotal = 0;
  let lastOpOpen = false;
  const reasons = new Map<string, number>();
  const connection = connectionOf(plan.origin, plan.connectAddress);
  const requests: autocannon.Request[] = plan.sequence.map((r) => ({
    method: r.method,
    setupRequest(req, ctx) {
      const now = performance.now();
      sent++;
      // an operation starts with the first request after the previous one completed
      if (ctx.opOpen !== true) {
        ctx.opOpen = true;
        ctx.opStartedAt = now;
        ctx.opFailed = false;
        operations++;
        if (now < windowEnd) opsStartedInWindow++;
      }
      const built = r.build(ctx);
      const headers = connection.host !== undefined ? { ...built.headers, host: connection.host } : built.headers;
      return { ...req, method: r.method, path: built.path, headers, body: built.body ?? '' };
    },
    onResponse(status, body, ctx, headers) {
      const failure = r.check(status, body, headers, ctx);
      if (failure !== undefined) {
        failed++;
        ctx.opFailed = true;
        // one reason per kind of failure: run tags and long numbers (serials, sequences) vary per request
        const key = failure
          .replace(/erpcert-load-[0-9a-f]+(-s\d+)?-\d+/g, '<run tag>')
          .replace(/\d{5,}/g, 'N')
          .slice(0, 200);
        reasons.set(key, (reasons.get(key) ?? 0) + 1);
      }
      if (r.completesOperation) {
        if (ctx.opFailed !== true && (ctx.opStartedAt as number) < windowEnd) succeeded++;
        ctx.opOpen = false;
      }
      lastOpOpen = ctx.opOpen === true;
    },
  }));
  // After the window no operation may start: a connection whose operation is complete is frozen (no further
  // request reaches the target, as k6 never starts a dropped iteration); the run ends when all are frozen.
  const clients = new Set<RateClient>();
  const busy = new Set<RateClient>();
  const frozen = new Set<RateClient>();
  let instance: autocannon.Instance | undefined;
  let ended = false;
  const freeze = (c: RateClient) => {
    c.rate = -1; // autocannon 9 Client: a negative rate keeps _doRequest paused for good (lib/httpClient.js)
    frozen.add(c);
    if (!ended && frozen.size === clients.size) {
      ended = true;
      instance?.stop();
    }
  };
  const setupClient = (client: autocannon.Client) => {
    const c = client as unknown as RateClient;
    clients.add(c);
    c.on('request', () => busy.add(c));
    c.on('timeout', () => busy.delete(c));
    // runs after onResponse and before the client sends its next request
    c.on('response', () => {
      busy.delete(c);
      if (performance.now() >= windowEnd && !lastOpOpen) freeze(c);
    });
  };
  const windowTimer =
    rate !== undefined
      ? setTimeout(() => {
          for (const c of clients) if (!busy.has(c) && !frozen.has(c)) freeze(c);
        }, seconds * 1000)
      : undefined;
  const run = autocannon({
    url: connection.url,
    ...(connection.servername !== undefined ? { servername: connection.servername } : {}),
    connections: plan.connections,
    amount,
    ...(rate !== undefined ? { overallRate: Math.round(rate * requestsPerOp), setupClient } : {}),
    ...(plan.connectionRate !== undefined ? { connectionRate: plan.connectionRate } : {}),
    timeout: plan.timeoutSeconds,
    requests,
    // with a rate, autocannon corrects for coordinated omission with an expected interval of ceil(1/rate) = 1 ms,
    // which floods the histogram with made-up values; the open model already counts late starts as dropped
    ...(rate !== undefined || plan.connectionRate !== undefined ? { ignoreCoordinatedOmission: true } : {}),
    sampleInt: 100,
  });
  instance = run;
  const latency = new LatencyHistogram();
  run.on('response', (_client: unknown, _status: number, resBytes: number, responseTime: number) => {
    latency.record(responseTime);
    responses++;
    bytes += resBytes;
    responseMsTotal += responseTime;
  });
  let stopped = false;
  const stop = () => {
    stopped = true;
    run.stop();
  };
  const hardStopMs =
    rate !== undefined
      ? (seconds + plan.timeoutSeconds + 2) * 1000
      : (amount * plan.timeoutSeconds + (plan.connectionRate ? amount / plan.connectionRate : 0) + 2) * 1000;
  const timer = setTimeout(stop, hardStopMs);
  plan.signal?.addEventListener('abort', stop, { once: true });
  if (plan.signal?.aborted) stop();
  let result: autocannon.Result;
  let latencyMs: Latency;
  try {
    result = await run;
    latencyMs = latency.latency();
  } finally {
    latency.destroy();
    clearTimeout(timer);
    clearTimeout(windowTimer);
    plan.signal?.removeEventListener('abort', stop);
  }
  const transport = result.errors; // connection errors and timeouts (autocannon counts timeouts among errors)
  if (result.timeouts > 0) reasons.set('request timed out', (reasons.get('request timed out') ?? 0) + result.timeouts);
  if (transport > result.timeouts)
    reasons.set('connection error', (reasons.get('connection error') ?? 0) + transport - result.timeouts);
  return {
    offered: offeredOps,
    sent,
    operations,
    dropped: rate !== undefined ? Math.max(0, offeredOps - opsStartedInWindow) : 0,
    succeeded,
    errors: failed + transport,
    failures: [...reasons.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([reason, count]) => ({ reason, count })),
    latencyMs,
    responseMsTotal: round2(responseMsTotal),
    bytes,
    responses,
    checks: { passes: responses - failed, fails: failed },
    wallSeconds: round2((performance.now() - started) / 1000),
    stopped,
  };
}
