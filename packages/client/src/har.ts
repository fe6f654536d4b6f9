import { writeFile } from 'node:fs/promises';
import type { Exchange, ExchangeBody, ExchangeHeader } from './exchange.js';
import { erpcertVersion } from './version.js';

/** A HAR 1.2 name/value pair. */
export interface HarNameValue {
  name: string;
  value: string;
}

/** A HAR 1.2 entry (http://www.softwareishard.com/blog/har-12-spec/#entries). */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string; encoding?: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text?: string; encoding?: string; comment?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
}

/** A HAR 1.2 document. */
export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
  };
}

function headers(list: readonly ExchangeHeader[]): HarNameValue[] {
  return list.map(({ name, value }) => ({ name, value }));
}

function queryString(url: string): HarNameValue[] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  return url
    .slice(q + 1)
    .split('#', 1)[0]!
    .split('&')
    .filter((p) => p !== '')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const dec = (s: string) => {
        try {
          return decodeURIComponent(s.replace(/\+/g, ' '));
        } catch {
          return s;
        }
      };
      return eq < 0 ? { name: dec(pair), value: '' } : { name: dec(pair.slice(0, eq)), value: dec(pair.slice(eq + 1)) };
    });
}

function truncatedNote(body: ExchangeBody | undefined): string | undefined {
  return body?.truncated ? `body cut to the first bytes of ${body.size}` : undefined;
}

/** One exchange as a HAR entry; the exchange is already masked, so is the entry. */
export function harEntry(exchange: Exchange): HarEntry {
  const { request, response } = exchange;
  const reqBody = request.body;
  const resBody = response?.body;
  const note = truncatedNote(resBody);
  return {
    startedDateTime: exchange.startedAt,
    time: exchange.durationMs,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headers(request.headers),
      queryString: queryString(request.url),
      ...(reqBody
        ? {
            postData: {
              mimeType: reqBody.mimeType,
              text: reqBody.text,
              ...(reqBody.encoding ? { encoding: reqBody.encoding } : {}),
            },
          }
        : {}),
      headersSize: -1,
      bodySize: reqBody?.size ?? 0,
    },
    response: {
      status: response?.status ?? 0,
      statusText: response?.statusText ?? '',
      httpVersion: response?.httpVersion ?? '',
      cookies: [],
      headers: headers(response?.headers ?? []),
      content: {
        size: resBody?.size ?? 0,
        mimeType: resBody?.mimeType ?? '',
        ...(resBody ? { text: resBody.text } : {}),
        ...(resBody?.encoding ? { encoding: resBody.encoding } : {}),
        ...(note ? { comment: note } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: resBody?.size ?? -1,
    },
    cache: {},
    timings: { send: 0, wait: exchange.durationMs, receive: 0 },
    ...(exchange.error ? { comment: `no response: ${exchange.error}` } : {}),
  };
}

/** A HAR 1.2 document of the exchanges, in order (masked as the exchanges are). */
export function toHar(exchanges: readonly Exchange[], creator = { name: 'erpcert', version: erpcertVersion() }): Har {
  return { log: { version: '1.2', creator, entries: exchanges.map(harEntry) } };
}

/** Writes a HAR 1.2 file of the exchanges. */
export async function writeHar(file: string, exchanges: readonly Exchange[]): Promise<void> {
  await writeFile(file, `${JSON.stringify(toHar(exchanges), null, 2)}\n`, 'utf8');
}

/** Collects exchanges for a HAR file: pass `recorder.observe` as `onExchange`. */
export class HarRecorder {
  readonly exchanges: Exchange[] = [];
  /** The observer to give the client. */
  readonly observe = (exchange: Exchange): void => {
    this.exchanges.push(exchange);
  };
  /** The HAR document so far. */
  toHar(): Har {
    return toHar(this.exchanges);
  }
  /** Writes the HAR file. */
  write(file: string): Promise<void> {
    return writeHar(file, this.exchanges);
  }
}
