/**
 * Reads every record of a register, a few fields at a time, in `offset`/`limit` pages with a pause between
 * pages (record-rest-api.md §4 rule 12: 1,000 to 5,000 records per request, pauses of about one second; rule
 * 13: reads with `fields`). Only reads: the cleanup finds a run's records this way before it touches any.
 */
import { restUrl, send, type TargetConnection } from '../reports/runner.js';
import { keyFields, type ScannedRecord } from './tag-match.js';

/** A register the cleanup could not read. */
export class ScanError extends Error {
  override readonly name = 'ScanError';
}

/** How to page. */
export interface ScanOptions {
  /** Records per request. @defaultValue 1000 */
  readonly batch?: number;
  /** Milliseconds between two page reads. @defaultValue 1000 */
  readonly pauseMs?: number;
  /** Company; absent: the connection's. */
  readonly company?: number | undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The key parts of an `@url` `/api/<n>/<register>/<part>[/<part>]`, decoded and `/`-joined. */
export function keyOfUrl(url: unknown, register: string): string | undefined {
  if (typeof url !== 'string') return undefined;
  const m = /^\/api\/[^/]+\/([^/?]+)\/([^?]*)$/.exec(url);
  if (!m || m[1] !== register || m[2] === '') return undefined;
  try {
    return m[2]!
      .split('/')
      .map((p) => decodeURIComponent(p))
      .join('/');
  } catch {
    return undefined;
  }
}

const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

function scanned(register: string, raw: Record<string, unknown>): ScannedRecord | undefined {
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (!k.startsWith('@') && k !== 'rows') fields[k] = text(v);
  const rows = Array.isArray(raw.rows)
    ? (raw.rows as Record<string, unknown>[]).map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, text(v)])),
      )
    : [];
  const parts = keyFields(register).map((k) => fields[k] ?? '');
  const key = keyOfUrl(raw['@url'], register) ?? (parts.every((p) => p !== '') ? parts.join('/') : undefined);
  if (key === undefined) return undefined;
  const sequence = Number(text(raw['@sequence']));
  return { register, key, sequence: Number.isFinite(sequence) ? sequence : 0, fields, rows };
}

/**
 * Every record of `register` with the key fields and `fields`, in the target's order. Throws ScanError when the
 * target refuses the read or answers something that is not the JSON envelope (record-rest-api.md §2 "Envelope").
 */
export async function scanRegister(
  conn: TargetConnection,
  register: string,
  fields: readonly string[],
  options: ScanOptions = {},
): Promise<ScannedRecord[]> {
  const batch = options.batch ?? 1000;
  const pauseMs = options.pauseMs ?? 1000;
  const wanted = [...new Set([...keyFields(register), ...fields])].join(',');
  const records: ScannedRecord[] = [];
  const seen = new Set<string>();
  for (let offset = 0; ; offset += batch) {
    if (offset > 0 && pauseMs > 0) await sleep(pauseMs);
    const url = restUrl(conn, register, undefined, options.company ?? conn.compcode);
    url.searchParams.set('fields', wanted);
    url.searchParams.set('limit', String(batch));
    url.searchParams.set('offset', String(offset));
    const res = await send(conn, 'GET', url, { accept: 'application/json' });
    if (res.status !== 200) throw new ScanError(`GET ${url.pathname} answered HTTP ${res.status}`);
    let page: unknown;
    try {
      const doc = JSON.parse(res.body) as { data?: Record<string, unknown>; error?: { '@description'?: string } };
      if (doc.error) throw new ScanError(`GET ${url.pathname}: ${doc.error['@description'] ?? 'an error answer'}`);
      page = doc.data?.[register];
    } catch (err) {
      if (err instanceof ScanError) throw err;
      throw new ScanError(`GET ${url.pathname} answered a body that is not JSON`);
    }
    if (!Array.isArray(page)) throw new ScanError(`GET ${url.pathname} answered no "${register}" record array`);
    let fresh = 0;
    for (const raw of page as Record<string, unknown>[]) {
      const r = scanned(register, raw);
      if (!r || seen.has(r.key)) continue;
      seen.add(r.key);
      records.push(r);
      fresh++;
    }
    if (page.length > 0 && fresh === 0)
      throw new ScanError(
        `GET ${url.pathname} at offset ${offset} repeated records of earlier pages (does the target ignore offset?): cannot read all of ${register}`,
      );
    if (page.length < batch) return records;
  }
}
