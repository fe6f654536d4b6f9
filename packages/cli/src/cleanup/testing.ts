/** Test helpers of the cleanup: HTTP against a reference server, and `main` with captured output. */

/** A target and its login. */
export interface TestTarget {
  readonly url: string;
  readonly user: string;
  readonly password: string;
}

const headers = (t: TestTarget, extra: Record<string, string> = {}) => ({
  authorization: `Basic ${Buffer.from(`${t.user}:${t.password}`).toString('base64')}`,
  accept: 'application/json',
  ...extra,
});

type Json = Record<string, unknown>;

/** The records of a list answer. */
async function records(t: TestTarget, register: string, query: Record<string, string>): Promise<Json[]> {
  const url = new URL(`${t.url}/api/1/${register}`);
  url.searchParams.set('compcode', '1');
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await fetch(url, { headers: headers(t) });
  const doc = (await res.json()) as { data?: Json };
  if (res.status !== 200 || !Array.isArray(doc.data?.[register]))
    throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(doc)}`);
  return doc.data[register] as Json[];
}

/** A record by its key field values (`filter.<key>`), or undefined when the target has none. */
export async function readRecord(
  t: TestTarget,
  register: string,
  key: Record<string, string>,
): Promise<Json | undefined> {
  const found = await records(t, register, Object.fromEntries(Object.entries(key).map(([k, v]) => [`filter.${k}`, v])));
  return found[0];
}

/** The target's current sequence number: any write moves it (record-rest-api.md §2 "Envelope"). */
export async function currentSequence(t: TestTarget): Promise<string> {
  const res = await fetch(`${t.url}/api/1/ObjVc?compcode=1&limit=1`, { headers: headers(t) });
  return String(((await res.json()) as { data: Json }).data['@sequence']);
}

/** The first `n` codes of a register. */
export async function codes(t: TestTarget, register: string, field: string, n: number): Promise<string[]> {
  return (await records(t, register, { fields: field, limit: String(n) })).map((r) => String(r[field]));
}

/** Creates one record with a form POST; returns the key of its `@url`. */
export async function createForm(
  t: TestTarget,
  register: string,
  header: Record<string, string>,
  rows: readonly Record<string, string>[] = [],
): Promise<string> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(header)) body.append(`set_field.${k}`, v);
  rows.forEach((row, i) => {
    for (const [k, v] of Object.entries(row)) body.append(`set_row_field.${i}.${k}`, v);
  });
  const res = await fetch(`${t.url}/api/1/${register}?compcode=1`, {
    method: 'POST',
    headers: headers(t, { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' }),
    body: body.toString().replace(/\+/g, '%20'),
  });
  const doc = (await res.json()) as { data?: Json };
  const created = (doc.data?.[register] as Json[] | undefined)?.[0];
  const url = typeof created?.['@url'] === 'string' ? created['@url'] : '';
  if (res.status !== 200 || url === '') throw new Error(`POST ${register}: ${res.status} ${JSON.stringify(doc)}`);
  return url.split('/').slice(4).map(decodeURIComponent).join('/');
}

export { erpcert } from '../testing/run-cli.js';
