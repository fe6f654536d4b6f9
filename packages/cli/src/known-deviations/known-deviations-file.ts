/**
 * The known-deviations file of `erpcert conform --baseline FILE` (README "CI gate"): the deviations of a target
 * that a team has accepted, one entry per rule, with the reason, optionally an expiry date and a ticket link.
 * Like ESLint's bulk suppressions it lives in its own committed file, the list of debts; later runs fail only
 * on what is beyond it. Not to be confused with the suite's register baseline (suites/conformance
 * src/harness/baseline.ts) or the load baseline of `erpcert load --baseline DIR` (load/baseline.ts).
 *
 * ```yaml
 * accepted:
 *   - rule: REST.QUERY.SORT_ASCENDING
 *     reason: sorts case-insensitively; fixed in ERP 9.1
 *     expires: 2027-03-31      # optional: after this day (UTC) the entry fails the run
 *     ticket: https://tracker.example.com/ERP-123   # optional
 * ```
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isCalendarDate } from '@erpcert/contract';
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, type YAMLMap, YAMLSeq } from 'yaml';

/** One accepted deviation. */
export interface KnownDeviation {
  /** A rule id of specs/rules.yaml. */
  readonly rule: string;
  /** Why it is accepted; empty when written by `--write-baseline` and not filled in yet. */
  readonly reason: string;
  /** `YYYY-MM-DD`: the entry accepts the deviation through this day (UTC), and fails the run after it. */
  readonly expires: string | null;
  readonly ticket: string | null;
  /** Line of the entry in its file (1-based). */
  readonly line: number;
}

/** A read known-deviations file. */
export interface KnownDeviations {
  /** The file as the user named it (never made absolute: reports show no path of this machine). */
  readonly file: string;
  readonly entries: readonly KnownDeviation[];
}

/** A known-deviations file that cannot be used: `FILE:LINE: what is wrong`. The run exits 2, nothing run. */
export class KnownDeviationsError extends Error {
  override readonly name = 'KnownDeviationsError';
}

const ENTRY_KEYS = ['rule', 'reason', 'expires', 'ticket'] as const;

/**
 * Parses a known-deviations file. `isRule` says whether an id is in the rule catalogue. Throws
 * {@link KnownDeviationsError} naming the line for a YAML error, a wrong shape, an unknown rule id, an invalid
 * date or a rule listed twice.
 */
export function parseKnownDeviations(text: string, file: string, isRule: (id: string) => boolean): KnownDeviations {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const fail = (at: number | undefined, message: string): never => {
    throw new KnownDeviationsError(`${file}:${at === undefined ? 1 : lines.linePos(at).line}: ${message}`);
  };
  const first = doc.errors[0];
  if (first) fail(first.pos[0], `not valid YAML: ${first.message.split('\n')[0]}`);
  const root = doc.contents as Node | null;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) return { file, entries: [] };
  if (!isMap(root)) fail(root.range?.[0], 'expected a mapping with the key "accepted" (a list of entries)');
  const map = root as YAMLMap;
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (key !== 'accepted')
      fail((pair.key as Node | null)?.range?.[0], `unknown key "${key}": the file holds only "accepted"`);
  }
  const list = map.get('accepted', true) as Node | undefined;
  if (list === undefined || (isScalar(list) && list.value === null)) return { file, entries: [] };
  if (!isSeq(list)) fail(list.range?.[0], '"accepted" must be a list of entries (- rule: ...)');
  const entries: KnownDeviation[] = [];
  const seen = new Map<string, number>();
  for (const item of (list as YAMLSeq).items as Node[]) {
    const at = item.range?.[0];
    const line = at === undefined ? 1 : lines.linePos(at).line;
    if (!isMap(item)) fail(at, 'an entry must be a mapping with rule, reason and optionally expires and ticket');
    const entry = item as YAMLMap;
    const fields: Record<string, string | null> = {};
    for (const pair of entry.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      const keyAt = (pair.key as Node | null)?.range?.[0];
      if (!(ENTRY_KEYS as readonly string[]).includes(key))
        fail(keyAt, `unknown key "${key}" (an entry has ${ENTRY_KEYS.join(', ')})`);
      const value = pair.value as Node | null;
      if (value !== null && !isScalar(value)) fail(value.range?.[0] ?? keyAt, `"${key}" must be a single value`);
      const v = value === null ? null : (value as { value: unknown }).value;
      if (v !== null && typeof v !== 'string' && typeof v !== 'number')
        fail(value?.range?.[0] ?? keyAt, `"${key}" must be text`);
      fields[key] = v === null ? null : String(v).trim();
    }
    const rule = fields.rule ?? '';
    if (rule === '') fail(at, 'an entry needs "rule": a rule id of specs/rules.yaml');
    if (!isRule(rule))
      fail(at, `unknown rule id ${rule}: not in specs/rules.yaml (ids look like REST.QUERY.SORT_ASCENDING)`);
    const earlier = seen.get(rule);
    if (earlier !== undefined) fail(at, `${rule} is listed twice (first on line ${earlier})`);
    seen.set(rule, line);
    const expires = fields.expires ?? null;
    if (expires !== null && expires !== '' && !isCalendarDate(expires))
      fail(at, `"expires" of ${rule} must be a day YYYY-MM-DD, got ${JSON.stringify(expires)}`);
    const ticket = fields.ticket ?? null;
    entries.push({
      rule,
      reason: fields.reason ?? '',
      expires: expires === '' ? null : expires,
      ticket: ticket === '' ? null : ticket,
      line,
    });
  }
  return { file, entries };
}

/** Reads and parses a known-deviations file; a missing or unreadable file is a {@link KnownDeviationsError}. */
export function readKnownDeviations(path: string, file: string, isRule: (id: string) => boolean): KnownDeviations {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new KnownDeviationsError(
      `${file}: ${code === 'ENOENT' ? 'no such file (--write-baseline FILE writes one)' : `cannot be read (${code ?? (err as Error).message})`}`,
    );
  }
  return parseKnownDeviations(text, file, isRule);
}

const HEADER = [
  ' Known deviations of the target, accepted for `erpcert conform --baseline` (README "CI gate").',
  ' A FAIL or ERROR of a listed rule is reported KNOWN and does not fail the run; anything else does.',
  ' Fill in every reason; "expires: YYYY-MM-DD" (optional) fails the run after that day; "ticket" is a link.',
  ' When a listed rule PASSes, the run says "fixed: remove it from the baseline".',
].join('\n');

/**
 * The text of a known-deviations file that holds `existing` (a file's text, or undefined for a new file) plus
 * an entry with an empty reason for each of `rules` it does not list yet. Entries already written, their
 * reasons, expiry, tickets and comments are kept as they are. Returns the text and the rules added.
 */
export function mergeKnownDeviations(
  existing: string | undefined,
  rules: readonly string[],
): { readonly text: string; readonly added: readonly string[] } {
  const fresh = existing === undefined || existing.trim() === '';
  const doc = parseDocument(fresh || existing === undefined ? 'accepted: []\n' : existing);
  if (fresh) doc.commentBefore = HEADER;
  let list = doc.get('accepted', true);
  if (!isSeq(list)) {
    list = new YAMLSeq();
    doc.set('accepted', list);
  }
  const seq = list as YAMLSeq;
  // one entry per block, as a person writes it (`accepted: []` parses as a flow list)
  seq.flow = false;
  const listed = new Set(
    seq.items.flatMap((i) => (isMap(i) && typeof i.get('rule') === 'string' ? [String(i.get('rule'))] : [])),
  );
  const added = [...new Set(rules)].filter((r) => !listed.has(r)).sort();
  for (const rule of added) {
    const entry = doc.createNode({ rule, reason: '' }) as YAMLMap;
    entry.flow = false;
    seq.add(entry);
  }
  return { text: doc.toString({ lineWidth: 0 }), added };
}

/**
 * The text of a known-deviations file without the entries of `rules` (`conform --prune-baseline`: the listed
 * rules this run judged PASS). Every other entry, reason, expiry, ticket and comment is kept as written.
 * Returns the text and the rules removed (those of `rules` the file listed).
 */
export function pruneKnownDeviations(
  existing: string,
  rules: readonly string[],
): { readonly text: string; readonly removed: readonly string[] } {
  const doc = parseDocument(existing);
  const list = doc.get('accepted', true);
  if (!isSeq(list)) return { text: existing, removed: [] };
  const drop = new Set(rules);
  const ruleOf = (i: unknown) => (isMap(i) && typeof i.get('rule') === 'string' ? String(i.get('rule')) : undefined);
  const removed = list.items.flatMap((i) => {
    const rule = ruleOf(i);
    return rule !== undefined && drop.has(rule) ? [rule] : [];
  });
  if (removed.length === 0) return { text: existing, removed };
  list.items = list.items.filter((i) => !drop.has(ruleOf(i) ?? ''));
  return { text: doc.toString({ lineWidth: 0 }), removed };
}

/** Writes {@link mergeKnownDeviations} of the file at `path` (read when it exists) and `rules` to `path`. */
export function writeKnownDeviations(path: string, rules: readonly string[]): readonly string[] {
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const { text, added } = mergeKnownDeviations(existing, rules);
  writeFileSync(path, text, 'utf8');
  return added;
}

/** Removes the entries of `rules` from the file at `path` ({@link pruneKnownDeviations}); returns those removed. */
export function pruneKnownDeviationsFile(path: string, rules: readonly string[]): readonly string[] {
  const { text, removed } = pruneKnownDeviations(readFileSync(path, 'utf8'), rules);
  if (removed.length > 0) writeFileSync(path, text, 'utf8');
  return removed;
}
