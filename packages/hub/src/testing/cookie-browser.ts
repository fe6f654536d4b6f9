/**
 * A browser reduced to what a sign-in needs, for tests driven by HTTP: fetch with redirects handled by hand and a
 * cookie jar (name and path; the tests' servers are all on 127.0.0.1, whose cookies a browser shares across ports).
 * Every answer it saw is kept, so a test can look through all of them.
 */

interface Cookie {
  readonly value: string;
  readonly path: string;
}

export interface Seen {
  readonly url: string;
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

export class CookieBrowser {
  readonly #jar = new Map<string, Cookie>();
  readonly seen: Seen[] = [];

  /** The value of a cookie, whatever its path. */
  cookie(name: string): string | undefined {
    for (const [key, c] of this.#jar) if (key.split('\n')[0] === name) return c.value;
    return undefined;
  }

  setCookie(name: string, value: string, path = '/'): void {
    this.#jar.set(`${name}\n${path}`, { value, path });
  }

  /** One request, no redirect followed. */
  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Seen> {
    const target = new URL(url);
    const cookies = [...this.#jar]
      .filter(
        ([, c]) =>
          target.pathname === c.path ||
          target.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) ||
          c.path === '/',
      )
      .map(([key, c]) => `${key.split('\n')[0]}=${c.value}`);
    const headers: Record<string, string> = {};
    if (cookies.length) headers.cookie = cookies.join('; ');
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(target, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) this.#store(line, target);
    const seen = { url: target.href, status: res.status, headers: res.headers, body: await res.text() };
    this.seen.push(seen);
    return seen;
  }

  /** Requests `url` and follows redirects until an answer is not one, or `stop` says the next URL is not to be followed. */
  async follow(
    url: string,
    stop: (next: URL) => boolean = () => false,
    init: Parameters<CookieBrowser['request']>[1] = {},
  ): Promise<Seen> {
    let seen = await this.request(url, init);
    for (let hops = 0; hops < 20; hops++) {
      const location = seen.headers.get('location');
      if (seen.status < 300 || seen.status > 399 || !location) return seen;
      const next = new URL(location, seen.url);
      if (stop(next)) return seen;
      seen = await this.request(next.href);
    }
    throw new Error(`more than 20 redirects from ${url}`);
  }

  #store(line: string, from: URL): void {
    const [pair = '', ...attrs] = line.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    let path = from.pathname.replace(/\/[^/]*$/, '') || '/';
    let expired = value === '';
    for (const a of attrs) {
      const [k = '', v = ''] = a.split('=');
      if (k.toLowerCase() === 'path') path = v || '/';
      if (k.toLowerCase() === 'max-age' && Number(v) <= 0) expired = true;
      if (k.toLowerCase() === 'expires' && Date.parse(v) <= Date.now()) expired = true;
    }
    if (expired) this.#jar.delete(`${name}\n${path}`);
    else this.#jar.set(`${name}\n${path}`, { value, path });
  }
}
