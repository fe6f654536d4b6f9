/** One query parameter; order is kept as given. */
export type QueryPair = readonly [name: string, value: string];

/**
 * Percent-encodes a query component like `encodeURIComponent`, but leaves `:` `,` `/` `@` readable (RFC 3986
 * §3.4 allows them in a query), so `range=10:20` and `fields=SerNr,InvDate` go out as written.
 */
export function encodeQueryComponent(value: string): string {
  return encodeURIComponent(value)
    .replace(/%3A/gi, ':')
    .replace(/%2C/gi, ',')
    .replace(/%2F/gi, '/')
    .replace(/%40/gi, '@');
}

/** `a=1&b=2` from pairs, each name and value encoded by {@link encodeQueryComponent}. */
export function encodeQuery(pairs: readonly QueryPair[]): string {
  return pairs.map(([k, v]) => `${encodeQueryComponent(k)}=${encodeQueryComponent(v)}`).join('&');
}

/** Appends `path` (starting with `/`) and the query to the base URL, keeping the base URL's own path prefix. */
export function buildUrl(baseUrl: URL, path: string, query: readonly QueryPair[] = []): URL {
  const prefix = baseUrl.pathname.replace(/\/+$/, '');
  const q = encodeQuery(query);
  return new URL(`${baseUrl.origin}${prefix}${path}${q ? `?${q}` : ''}`);
}

/** Encodes one record key part for a path segment (`@url` key parts are URL-encoded, record-rest-api.md §2). */
export function encodeKeyPart(part: string): string {
  return encodeURIComponent(part);
}
