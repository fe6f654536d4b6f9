/**
 * The part of autocannon 9's programmatic API erpcert uses (autocannon ships no types; the shapes follow its
 * README "API", "Results" and "Client API" sections).
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    /** The request autocannon is about to send; `setupRequest` returns a changed copy. */
    interface RequestParams {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }

    /** One entry of `requests`: the client loops over them in order. */
    interface Request extends RequestParams {
      setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams | undefined;
      onResponse?: (
        status: number,
        body: string,
        context: Record<string, unknown>,
        headers: Record<string, string | string[]>,
      ) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      amount?: number;
      /** Seconds. */
      timeout?: number;
      pipelining?: number;
      connectionRate?: number;
      overallRate?: number;
      ignoreCoordinatedOmission?: boolean;
      sampleInt?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      requests?: Request[];
      setupClient?: (client: Client) => void;
      excludeErrorStats?: boolean;
      title?: string;
      /** TLS server name (SNI); defaults to the URL's host name when that is not an address. */
      servername?: string;
    }

    /** hdr-histogram-percentiles-obj: the percentiles autocannon reports. */
    interface Histogram {
      min: number;
      max: number;
      average: number;
      mean: number;
      stddev: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
      total?: number;
      sent?: number;
      totalCount?: number;
    }

    interface Result {
      url: string;
      latency: Histogram;
      requests: Histogram & { total: number; sent: number };
      throughput: Histogram & { total: number };
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      start: Date;
      finish: Date;
      connections: number;
      statusCodeStats: Record<string, { count: number }>;
    }

    interface Client extends EventEmitter {
      setHeaders(headers: Record<string, string>): void;
      setBody(body: string | Buffer): void;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(opts: autocannon.Options): autocannon.Instance;
  function autocannon(
    opts: autocannon.Options,
    cb: (err: Error | null, result: autocannon.Result) => void,
  ): autocannon.Instance;

  export = autocannon;
}
