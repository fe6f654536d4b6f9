/**
 * A mutating proxy for the suite's self-test (issue 5 "The suite is tested too"): it stands in front of the
 * reference server and breaks one documented behaviour, by rewriting the request on its way in or the
 * response on its way out. Listens on 127.0.0.1, port 0.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the proxy holds it. `url` is the path and query. */
export interface ProxyRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A response as the proxy holds it (the body whole; Content-Length is recomputed on the way out). */
export interface ProxyResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** One deliberately broken behaviour. */
export interface Mutant {
  /** Short kebab-case name. */
  readonly id: string;
  /** What the broken server does, in one line. */
  readonly description: string;
  /** The rule ids (specs/rules.yaml) that break: the self-test expects FAIL on exactly these. */
  readonly breaks: readonly string[];
  /**
   * The target stays within the contract in a way the suite must tolerate (a throttling server): `breaks` is
   * empty, `select` names what to run, and the mutant is caught when no run FAILs any rule.
   */
  readonly harmless?: true;
  /**
   * Rules the broken behaviour also breaks, whose checks a run may or may not reach (limit ignored also breaks
   * paging by offset and limit): a FAIL of one is precise, but none is required.
   */
  readonly alsoBreaks?: readonly string[];
  /**
   * Rules the broken behaviour breaks where no black-box read can show it (the Kanban response is not shown, so a
   * column over `maxsize` cannot be counted): each run must give them no PASS, a FAIL or the SKIP "no observation
   * reached the case that tells right from wrong". The selection defaults to their families too.
   */
  readonly undecided?: readonly string[];
  /** The `--only` glob of the self-test run; defaults to the rule families of the broken rules. */
  readonly select?: string;
  /** `erpcert conform` flags the mutant needs (e.g. `other-compcode`); without them it is not run. */
  readonly needs?: readonly string[];
  /** Rewrites a request, or answers it without the server. */
  request?(req: ProxyRequest): ProxyRequest | ProxyResponse;
  /** Rewrites a response. */
  response?(req: ProxyRequest, res: ProxyResponse): ProxyResponse;
  /**
   * Takes the whole exchange over (the behaviour mutants): may send several requests upstream through `forward`
   * (a write to one more record, an undo before a read, a deleterow that removes one row more than it lists) and answers; undefined leaves the request to the other hooks.
   */
  exchange?(
    req: ProxyRequest,
    forward: (r: ProxyRequest) => Promise<ProxyResponse>,
  ): Promise<ProxyResponse | undefined>;
}

/** A running proxy. */
export interface RunningProxy {
  readonly url: string;
  /** How many requests each hook changed (a mutant that never fires cannot be caught). */
  readonly hits: { requests: number; responses: number };
  close(): Promise<void>;
}

const isResponse = (x: ProxyRequest | ProxyResponse): x is ProxyResponse => 'status' in x;

function forward(upstream: URL, req: ProxyRequest): Promise<ProxyResponse> {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, host: upstream.host, 'content-length': String(req.body.length) };
    delete headers['transfer-encoding'];
    const out = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 502, headers: { ...res.headers }, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    out.setTimeout(60_000, () => out.destroy(new Error('upstream timeout')));
    out.on('error', reject);
    out.end(req.body);
  });
}

/** Writes `res` out, its Content-Length recomputed and the hop-by-hop headers dropped. */
function send(outgoing: ServerResponse, res: ProxyResponse): void {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(res.headers)) {
    if (
      v === undefined ||
      ['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k.toLowerCase())
    )
      continue;
    headers[k] = v;
  }
  headers['content-length'] = String(res.body.length);
  outgoing.writeHead(res.status, headers);
  outgoing.end(res.body);
}

/** Starts a proxy to `upstream` (the reference server's base URL) that applies `mutant`. */
export async function startProxy(upstream: string, mutant: Mutant | undefined): Promise<RunningProxy> {
  const base = new URL(upstream);
  const hits = { requests: 0, responses: 0 };
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', async () => {
      try {
        const req: ProxyRequest = {
          method: incoming.method ?? 'GET',
          url: incoming.url ?? '/',
          headers: { ...incoming.headers },
          body: Buffer.concat(chunks),
        };
        const taken = await mutant?.exchange?.(req, (r) => forward(base, r));
        if (taken !== undefined) {
          hits.requests++;
          send(outgoing, taken);
          return;
        }
        const changed = mutant?.request?.(req) ?? req;
        if (changed !== req) hits.requests++;
        const res = isResponse(changed) ? changed : await forward(base, changed);
        const sent = isResponse(changed) ? req : changed;
        const mutated = isResponse(changed) ? res : (mutant?.response?.(sent, res) ?? res);
        if (mutated !== res) hits.responses++;
        send(outgoing, mutated);
      } catch (err) {
        outgoing.writeHead(502, { 'content-type': 'text/plain' });
        outgoing.end(`erpcert self-test proxy: ${(err as Error).message}`);
      }
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
