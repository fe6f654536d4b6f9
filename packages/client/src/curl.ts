import type { Exchange } from './exchange.js';
import { MASK } from './mask.js';
import { shellQuote } from './shell-quote.js';

/** Environment variables a replay command reads the credentials from. */
export const CURL_ENV = {
  user: 'ERPCERT_USER',
  password: 'ERPCERT_PASSWORD',
  session: 'ERPCERT_SESSION',
  token: 'ERPCERT_TOKEN',
} as const;

/** Headers curl sets itself or that would be wrong on a replay. */
const DROPPED = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);

/**
 * A curl command that replays a recorded exchange. It is masked like the exchange: Basic credentials become
 * `-u "$ERPCERT_USER:$ERPCERT_PASSWORD"`, a bearer token `$ERPCERT_TOKEN`, the HSESSION cookie `$ERPCERT_SESSION`;
 * other masked values (`***`) must be put back by hand. A binary body is piped in from base64.
 */
export function toCurl(exchange: Exchange): string {
  const { request } = exchange;
  const args: string[] = ['curl', '-sS', '-g'];
  let prefix = '';
  if (request.method !== 'GET' || request.body) args.push('-X', request.method);
  args.push(shellQuote(request.url));
  for (const { name, value } of request.headers) {
    const lower = name.toLowerCase();
    if (DROPPED.has(lower)) continue;
    if (lower === 'authorization') {
      const scheme = value.split(' ', 1)[0]!.toLowerCase();
      if (scheme === 'basic') args.push('-u', `"$${CURL_ENV.user}:$${CURL_ENV.password}"`);
      else if (scheme === 'bearer') args.push('-H', `"Authorization: Bearer $${CURL_ENV.token}"`);
      else args.push('-H', shellQuote(`${name}: ${value}`));
      continue;
    }
    if (lower === 'cookie' && value.includes(`HSESSION=${MASK}`)) {
      const [before, after] = value.split(`HSESSION=${MASK}`, 2) as [string, string];
      args.push('-H', `${shellQuote(`${name}: ${before}HSESSION=`)}"$${CURL_ENV.session}"${shellQuote(after)}`);
      continue;
    }
    args.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (request.body) {
    if (request.body.encoding === 'base64') {
      prefix = `printf %s ${shellQuote(request.body.text)} | base64 -d | `;
      args.push('--data-binary', '@-');
    } else {
      args.push('--data-binary', shellQuote(request.body.text));
    }
  }
  return prefix + args.join(' ');
}
