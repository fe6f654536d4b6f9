/**
 * Response checks of the load scenarios: a response counts only when it is what the docs promise. Each check
 * returns undefined when the response passes, else the reason in a few words (a fast error is not throughput).
 * Bodies are XML, the documented default (record-rest-api.md §1, portal-action-api.md §1).
 */

/** A failed check: why, and the first characters of the body. */
export type CheckFailure = string | undefined;

/** Characters of a body the cheap check looks into for `<error` and `errstr` (they stand before `<data>`). */
export const LOOK_CHARS = 2048;

/**
 * The cheap check every response gets: a 2xx status, the `Sequence` header of a REST answer (record-rest-api.md
 * §4 rule 6: "Every response carries a sequence value"), and a bounded look into the first {@link LOOK_CHARS}
 * characters for `<error` and a non-empty `errstr` (DESIGN.md: errors come with HTTP 200, before `<data>`). No
 * parse, no scan of the whole body: the full checks run on a sample ({@link sampleEvery}).
 */
export function quickCheck(
  status: number,
  body: string,
  headers: Record<string, string | string[]>,
  rest: boolean,
): CheckFailure {
  if (status < 200 || status > 299) return `HTTP ${status}${snippet(body.slice(0, LOOK_CHARS))}`;
  if (rest) {
    const seq = headers.Sequence ?? headers.sequence;
    if (seq === undefined || !/^\d+$/.test(String(seq)))
      return 'no numeric Sequence header (record-rest-api.md §4 rule 6)';
  }
  const head = body.length > LOOK_CHARS ? body.slice(0, LOOK_CHARS) : body;
  if (head.includes('<error')) return erpErrorOf(status, head) ?? 'an <error element';
  if (head.includes('errstr="')) {
    const errstr = ERRSTR.exec(head);
    if (errstr && errstr[1] !== '') return `errstr="${errstr[1]?.slice(0, 120)}"`;
  }
  return undefined;
}

/** True for the 1st, (n+1)th, (2n+1)th ... call: which responses get the full check (n = 1: all of them). */
export function sampleEvery(n: number): () => boolean {
  const every = Math.max(1, Math.floor(n));
  let i = 0;
  return () => i++ % every === 0;
}

const ERROR_ELEMENT = /<error\b[^>]*>/;
const ERRSTR = /\berrstr="([^"]*)"/;

/** Reason for a status other than 200 or an `<error>` element (real servers send errors with 200, DESIGN.md). */
export function erpErrorOf(status: number, body: string): CheckFailure {
  if (status < 200 || status > 299) return `HTTP ${status}${snippet(body)}`;
  const error = ERROR_ELEMENT.exec(body);
  if (error) return `error element ${error[0].slice(0, 160)}`;
  return undefined;
}

/** Elements named `name` (`<IVVc ...>` or `<IVVc>`), e.g. the records of a REST envelope. */
export function countElements(body: string, name: string): number {
  const re = new RegExp(`<${name}[\\s>/]`, 'g');
  let n = 0;
  while (re.exec(body) !== null) n++;
  return n;
}

/** `@sequence` of each record element `<name ... sequence="N" ...>`, in body order. */
export function recordSequences(body: string, name: string): number[] {
  const re = new RegExp(`<${name}\\s[^>]*?\\bsequence="(\\d+)"`, 'g');
  const out: number[] = [];
  for (let m = re.exec(body); m !== null; m = re.exec(body)) out.push(Number(m[1]));
  return out;
}

/** `@url` of each record element `<name ... url="..." ...>`, in body order. */
export function recordUrls(body: string, name: string): string[] {
  const re = new RegExp(`<${name}\\s[^>]*?\\burl="([^"]*)"`, 'g');
  const out: string[] = [];
  for (let m = re.exec(body); m !== null; m = re.exec(body)) out.push(m[1] ?? '');
  return out;
}

function snippet(body: string): string {
  const text = body.replace(/\s+/g, ' ').trim();
  return text ? `: ${text.slice(0, 120)}` : '';
}

/**
 * A form POST that creates one record (record-rest-api.md §4 "Create records, form"): 200, no `<error>`, one
 * record of the register carrying the run's `tag`, and `OKFlag` 1 when the POST confirmed it (§3).
 */
export function checkCreated(
  status: number,
  body: string,
  register: string,
  tag: string,
  confirmed: boolean,
): CheckFailure {
  const error = erpErrorOf(status, body);
  if (error) return error;
  const records = countElements(body, register);
  if (records !== 1) return `expected 1 ${register} record in the answer, got ${records}${snippet(body)}`;
  if (!body.includes(tag)) return `the created ${register} does not carry the run tag ${tag}`;
  if (confirmed && !/<OKFlag>1<\/OKFlag>/.test(body)) return `the ${register} was not confirmed (OKFlag is not 1)`;
  return undefined;
}

/** One offset/limit page of a read (§4 rule 12): 200, no `<error>`, exactly `expected` records. */
export function checkReadPage(status: number, body: string, register: string, expected: number): CheckFailure {
  const error = erpErrorOf(status, body);
  if (error) return error;
  const records = countElements(body, register);
  if (records !== expected) return `expected ${expected} ${register} records in the page, got ${records}`;
  return undefined;
}

/**
 * An `updates_after=S` answer (§2 "Record", §4 rule 6): every record was written after S, and the record just
 * written (carrying `tag`) is among them.
 */
export function checkSync(status: number, body: string, register: string, after: number, tag: string): CheckFailure {
  if (status === 404) return `HTTP 404: ${register} has no synchronisation index (updates_after unavailable)`;
  const error = erpErrorOf(status, body);
  if (error) return error;
  const seqs = recordSequences(body, register);
  if (seqs.length === 0) return `updates_after=${after} returned no ${register} record, not even the one just written`;
  const old = seqs.find((s) => s <= after);
  if (old !== undefined) return `updates_after=${after} returned a record of sequence ${old}`;
  if (!body.includes(tag)) return `updates_after=${after} did not return the record just written (${tag})`;
  return undefined;
}

/** A portal answer (portal-action-api.md §7): no `<error>` and no non-empty `errstr`. */
export function portalErrorOf(status: number, body: string): CheckFailure {
  const error = erpErrorOf(status, body);
  if (error) return error;
  const errstr = ERRSTR.exec(body);
  if (errstr && errstr[1] !== '') return `errstr="${errstr[1]?.slice(0, 120)}"`;
  return undefined;
}

/** pastespecial (§4 rule 1, §8): at most 50 results, named after the register. */
export function checkLookup(status: number, body: string, register: string): CheckFailure {
  const error = portalErrorOf(status, body);
  if (error) return error;
  if (!/<data[\s>/]/.test(body)) return `no <data> element${snippet(body)}`;
  const n = countElements(body, register);
  if (n > 50) return `pastespecial returned ${n} results, more than the documented 50`;
  return undefined;
}

/** A list query page (§2 "Paged list"): `<data count page perpage totalpages>` or `<data page total>`. */
export function checkListPage(status: number, body: string): CheckFailure {
  const error = portalErrorOf(status, body);
  if (error) return error;
  if (!/<data\s[^>]*\bpage="\d+"/.test(body)) return `no paged <data page="..."> element${snippet(body)}`;
  return undefined;
}

/** A generated document (§2 "Document"): `<file>` with a non-empty `<base64>`. */
export function checkDocument(status: number, body: string): CheckFailure {
  const error = portalErrorOf(status, body);
  if (error) return error;
  if (!/<file>[\s\S]*<base64>[A-Za-z0-9+/=\s]{16,}<\/base64>/.test(body))
    return `no <file> with base64 content${snippet(body)}`;
  return undefined;
}
