import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, type AppOptions, createApp } from '../app.js';
import { isOAuthPath } from '../auth/oauth.js';
import { ErpError, ErrorCode } from '../errors.js';
import type { AppResponse } from '../http/types.js';
import { writeQuirky } from './quirks-wire.js';

/** Options of `startServer`: the app's options plus where to listen. */
export interface ServerOptions extends AppOptions {
  /** @defaultValue `'127.0.0.1'` */
  readonly host?: string;
  /** 0 picks a free port. @defaultValue 8080 */
  readonly port?: number;
  /** Serve this app instead of creating one. */
  readonly app?: App;
}

/** A listening server. */
export interface RunningServer {
  /** `http://HOST:PORT`, the line `erpcert serve` prints. */
  readonly url: string;
  readonly port: number;
  readonly app: App;
  readonly server: Server;
  /** Stops listening, drops open connections and closes the database. */
  close(): Promise<void>;
}

function send(req: IncomingMessage, res: ServerResponse, out: AppResponse, quirks: boolean, close = false): void {
  // the OAuth endpoints stand for a separate identity service: their wire stays clean under --quirks (issue 21)
  if (quirks && !isOAuthPath(req.url ?? '/')) {
    writeQuirky(req.socket, out, req.method === 'HEAD');
    return;
  }
  if (close) out.headers.Connection = 'close';
  res.writeHead(out.status, out.headers);
  res.end(out.body);
}

function tooLarge(app: App): ErpError {
  return new ErpError(413, ErrorCode.bodyTooLarge, `the request body is over ${app.maxBody} bytes`);
}

/**
 * The node:http adapter around `App.handle`. A body over the limit is refused before it is read
 * whole: by its Content-Length up front, or by counting streamed bytes and stopping at the limit.
 */
export function handleNodeRequest(app: App, req: IncomingMessage, res: ServerResponse): void {
  const remoteAddress = req.socket.remoteAddress ?? '';
  const refuse = (err: ErpError) => {
    req.removeAllListeners('data');
    req.pause();
    send(req, res, app.reject(req.headers, err), app.quirks, true);
    res.on('finish', () => req.socket.destroySoon());
  };
  if (app.allowList && !app.allowList.allows(remoteAddress)) {
    refuse(new ErpError(403, ErrorCode.forbidden, `client address ${remoteAddress} is not on the allow-list`));
    return;
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > app.maxBody) {
    refuse(tooLarge(app));
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > app.maxBody) {
      refused = true;
      chunks.length = 0;
      refuse(tooLarge(app));
      return;
    }
    chunks.push(chunk);
  });
  req.on('error', () => req.socket.destroy());
  req.on('end', () => {
    if (refused) return;
    app
      .handle({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks),
        remoteAddress,
      })
      .then((out) => send(req, res, out, app.quirks))
      .catch((err: unknown) => {
        app.log(`erpcert refserver: response failed: ${(err as Error)?.stack ?? String(err)}`);
        req.socket.destroy();
      });
  });
}

/** Starts the reference ERP on host:port; resolves once it accepts requests. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const app = options.app ?? createApp(options);
  const server = createServer((req, res) => handleNodeRequest(app, req, res));
  server.requestTimeout = 120_000;
  server.headersTimeout = 30_000;
  // Node's default of 5 s closes idle keep-alive sockets while a busy client is about to reuse them: the
  // client sees a reset ("socket hang up") on a request the server never read. Clients honour the
  // `Keep-Alive: timeout=60` hint this sends, so the race needs a socket idle for a whole minute.
  server.keepAliveTimeout = 60_000;
  const host = options.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 8080, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    if (!options.app) app.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    app,
    server,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => {
        if (!options.app) app.close();
      });
      return closed;
    },
  };
}
