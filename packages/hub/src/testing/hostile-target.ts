/**
 * A target under test that is hostile: an HTTP server on 127.0.0.1 (port 0) whose every answer carries the planted
 * strings of hostile-run.ts: XML (or JSON when asked for JSON) with markup, an attribute breakout, a `javascript:`
 * URL, SVG with script, control and invalid UTF-8 bytes, a lone surrogate and a 1 MiB value; its headers carry the
 * breakout and a `javascript:` Location. `erpcert conform` runs against it; the hub shows what it recorded.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BREAKOUT, hostileJsonBody, hostileXmlBody, JS_URL } from './hostile-run.js';

export interface HostileTarget {
  readonly url: string;
  /** Requests answered so far (method and path). */
  readonly requests: readonly string[];
  /** The Basic passwords the requests carried (a planted-secret test shows that its password did reach the target). */
  readonly passwordsSeen: ReadonlySet<string>;
  close(): Promise<void>;
}

/**
 * @param o.echoCredentials also send the request's credentials back, as a careless server does: the Authorization
 *   header in a response header and a cookie, the Basic password decoded in the body (the masking must catch them).
 */
export async function startHostileTarget(o: { echoCredentials?: boolean } = {}): Promise<HostileTarget> {
  const requests: string[] = [];
  const passwordsSeen = new Set<string>();
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    const json = /json/i.test(`${req.headers.accept ?? ''} ${req.url ?? ''}`);
    const auth = req.headers.authorization ?? '';
    const basic = /^Basic (.+)$/i.exec(auth)?.[1];
    const password = basic
      ? Buffer.from(basic, 'base64')
          .toString('utf8')
          .replace(/^[^:]*:/, '')
      : '';
    if (password !== '') passwordsSeen.add(password);
    const echo = o.echoCredentials && password !== '';
    // the echo comes first: a recorder keeps the head of a long body
    const body = Buffer.concat([
      Buffer.from(
        echo ? (json ? `{"password":${JSON.stringify(password)}}\n` : `<password>${password}</password>`) : '',
      ),
      json ? Buffer.from(hostileJsonBody(), 'utf8') : hostileXmlBody(),
    ]);
    res.writeHead(200, {
      'content-type': json ? 'application/json; charset=utf-8' : 'text/xml; charset=utf-8',
      'content-length': String(body.length),
      'x-planted': BREAKOUT,
      location: JS_URL,
      sequence: '1',
      ...(echo ? { 'x-echo-authorization': auth, 'set-cookie': `HSESSION=${password}; Path=/` } : {}),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    passwordsSeen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
