// Sequence feeds (issue 5 "Sequence feeds"; record-rest-api.md §4 "Query parameters" updates_after /
// deletes_after, rule 6, §6 "Sequence numbers serve as change feed"). Each run creates, updates and deletes
// its own tagged CUVc records (deletion through the portal `delete`, portal-action-api.md §4), so that
// shrinking re-runs on fresh state; records other tests write at the same time are only held to the bounds.
import fc from 'fast-check';
import { describe } from 'vitest';
import {
  type AnyRecord,
  accepted,
  assertSequenceAdvanced,
  assertSequenceHeader,
  Baselines,
  confirmed,
  createJson,
  type Decisiveness,
  decisiveWhen,
  deleteRecord,
  expectRule,
  fieldValue,
  isRefusal,
  judgeStable,
  keyFromUrl,
  ledgerCreated,
  probe,
  type RuleContext,
  readBack,
  ruleProperty,
  sequenceOf,
  show,
  uniqueCode,
  violated,
} from '../../src/harness/index.js';

const REGISTER = 'CUVc';

type Op = { kind: 'create' } | { kind: 'update'; target: number } | { kind: 'delete'; target: number };

const opsArb = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: fc.constant<Op>({ kind: 'create' }) },
    { weight: 2, arbitrary: fc.nat().map<Op>((target) => ({ kind: 'update', target })) },
    { weight: 1, arbitrary: fc.nat().map<Op>((target) => ({ kind: 'delete', target })) },
  ),
  { minLength: 1, maxLength: 5 },
);

const CREATE: Op = { kind: 'create' };
const UPDATE_FIRST: Op = { kind: 'update', target: 0 };
const DELETE_FIRST: Op = { kind: 'delete', target: 0 };

/** What a run did to its own records. */
interface Effects {
  readonly since: bigint;
  /** Live records: code -> the Name last written. */
  readonly live: Map<string, string>;
  readonly deleted: Set<string>;
}

/** The current sequence number of the target: the Sequence header (else envelope) of a small read. */
async function currentSequence(ctx: RuleContext, rule: string): Promise<bigint> {
  const env = await ctx.client.rest.list(REGISTER, { limit: 1 } as never, { format: 'json' });
  const seq = sequenceOf(env);
  if (seq === undefined) violated(rule, 'a list answer carries neither a Sequence header nor data@sequence');
  return seq;
}

/**
 * Runs the operations on the run's own records, checking after each write that the sequence moved
 * forward (REST.SEQ.MONOTONIC). Deletes without a live record, or when the portal refuses to delete,
 * are left out (`deletes: false` leaves every delete out). An update or delete is read back first: one that
 * changed nothing gives MONOTONIC no verdict, and the effects hold what the target stores.
 */
async function apply(ctx: RuleContext, ops: readonly Op[], deletes: boolean): Promise<Effects> {
  const since = await currentSequence(ctx, 'REST.SEQ.MONOTONIC');
  const live = new Map<string, string>();
  const deleted = new Set<string>();
  let prev = since;
  let n = 0;
  for (const op of ops) {
    const codes = [...live.keys()];
    let after: bigint | undefined;
    let what: string;
    // the write's effect, confirmed by a read (a create is read back by the feeds' own checks)
    let changed = true;
    if (op.kind === 'create' || codes.length === 0) {
      const code = uniqueCode(ctx);
      const name = `${ctx.target.runTag} seq ${n++}`;
      const [created] = await createJson(ctx, REGISTER, [{ Code: code, Name: name }], { format: 'json' });
      live.set(code, name);
      after = sequenceOf(created!.envelope);
      what = `creating ${REGISTER} ${code}`;
    } else if (op.kind === 'update') {
      const code = codes[op.target % codes.length]!;
      const name = `${ctx.target.runTag} seq ${n++}`;
      const env = await accepted(
        'REST.WRITE.UPDATE_PATCH',
        ctx.client.rest.update(REGISTER, code, { Name: name }, [], { format: 'json' }),
        `PATCH ${REGISTER}/${code}`,
      );
      // the body of PATCH is not shown (§4 rule 9); the Sequence header is on every response (rule 6)
      after = sequenceOf(env) ?? (await currentSequence(ctx, 'REST.SEQ.MONOTONIC'));
      what = `updating ${REGISTER} ${code}`;
      // preconditions first: a PATCH that changed nothing rightly leaves the sequence where it was (and the
      // feeds hold the old value); the rule the PATCH broke is judged by the write tests
      const stored = fieldValue((await readBack(ctx, REGISTER, 'Code', code)) ?? {}, 'Name');
      changed = stored === name;
      live.set(code, stored === '' ? (live.get(code) ?? '') : stored);
    } else {
      if (!deletes) continue;
      const code = codes[op.target % codes.length]!;
      try {
        await deleteRecord(ctx, REGISTER, code);
      } catch (err) {
        if (isRefusal(err)) ctx.skip(`the portal delete of ${REGISTER} is refused: ${(err as Error).message}`);
        throw err;
      }
      after = await currentSequence(ctx, 'REST.SEQ.MONOTONIC');
      what = `deleting ${REGISTER} ${code}`;
      changed = (await readBack(ctx, REGISTER, 'Code', code)) === undefined;
      if (changed) {
        live.delete(code);
        deleted.add(code);
      } else ledgerCreated(ctx, REGISTER, code); // still there: the run's cleanup tries again
    }
    if (confirmed(ctx, 'REST.SEQ.MONOTONIC', changed, () => `${what} changed nothing that a read shows`))
      assertSequenceAdvanced(prev, after, 'REST.SEQ.MONOTONIC', what);
    if (after !== undefined && after > prev) prev = after;
  }
  return { since, live, deleted };
}

function codeOf(record: AnyRecord): string {
  return fieldValue(record, 'Code') || (keyFromUrl(String(record['@url'] ?? ''), REGISTER)?.[0] ?? '');
}

/**
 * A record of the run that updates_after=`since` left out: when its own @sequence is not above `since`, the
 * feed followed its definition and the write did not move the sequence past a value handed out before it
 * (REST.SEQ.MONOTONIC); otherwise nothing is judged here and the caller FAILs REST.SEQ.UPDATES_AFTER.
 */
async function notAboveSince(ctx: RuleContext, code: string, since: bigint): Promise<void> {
  const record = await readBack(ctx, REGISTER, 'Code', code);
  const seq = fieldValue(record ?? {}, '@sequence');
  if (/^\d+$/.test(seq) && BigInt(seq) <= since)
    violated(
      'REST.SEQ.MONOTONIC',
      `${REGISTER} ${code}, written after the current sequence number ${since}, carries @sequence ${seq}`,
    );
}

async function feed(ctx: RuleContext, query: 'updates_after' | 'deletes_after', since: bigint, rule: string) {
  const p = await probe(ctx, REGISTER, { [query]: since.toString() });
  if (!p.ok) violated(rule, `${REGISTER}?${query}=${since} was refused: ${p.why}`);
  return p;
}

/**
 * Whether an updates_after=`since` read separates: the register holds a record written at or before `since`
 * (which a server ignoring the parameter would return) and one written after it (`after` of them).
 */
async function feedSeparates(ctx: RuleContext, since: bigint, after: number, rule: string): Promise<Decisiveness> {
  const p = await probe(ctx, REGISTER, { limit: 20 });
  const before =
    p.ok &&
    p.records.some((r) => {
      const s = fieldValue(r, '@sequence');
      return /^\d+$/.test(s) && BigInt(s) <= since;
    });
  return decisiveWhen(
    rule,
    before && after > 0,
    before
      ? `no ${REGISTER} record was written after ${since}`
      : `no ${REGISTER} record read holds a @sequence at or below ${since}: a server ignoring updates_after answers alike`,
  );
}

describe('REST sequence feeds', () => {
  ruleProperty(
    'REST.SEQ.MONOTONIC',
    'every write (create, update, portal delete) moves the current sequence number forward',
    [opsArb],
    async (ctx, ops) => {
      await apply(ctx, ops, true);
    },
    // each kind of write once in every run (a create, an update, a portal delete)
    { numRuns: 10, writes: true, examples: [[[CREATE, UPDATE_FIRST, DELETE_FIRST]]] },
  );

  ruleProperty(
    ['REST.SEQ.UPDATES_AFTER', 'REST.SEQ.CHANGE_FEED'],
    'updates_after=N returns the records changed after N, each with @sequence above N, with their latest values',
    [opsArb],
    async (ctx, ops) => {
      const { since, live, deleted } = await apply(ctx, ops, true);
      const p = await feed(ctx, 'updates_after', since, 'REST.SEQ.UPDATES_AFTER');
      const how = await feedSeparates(ctx, since, live.size, 'REST.SEQ.UPDATES_AFTER');
      for (const r of p.records) {
        const seq = fieldValue(r, '@sequence');
        expectRule(
          /^\d+$/.test(seq) && BigInt(seq) > since,
          'REST.SEQ.UPDATES_AFTER',
          () => `updates_after=${since} returned ${show(r['@url'])} with @sequence ${show(seq)}`,
          how,
        );
      }
      const got = new Map(p.records.map((r) => [codeOf(r), r]));
      for (const [code, name] of live) {
        const r = got.get(code);
        if (r === undefined) await notAboveSince(ctx, code, since);
        expectRule(
          r !== undefined,
          'REST.SEQ.UPDATES_AFTER',
          () => `updates_after=${since} misses ${REGISTER} ${code}, written after ${since}`,
          how,
        );
        expectRule(
          fieldValue(r, 'Name') === name,
          'REST.SEQ.UPDATES_AFTER',
          () =>
            `updates_after=${since} returns ${code} with Name ${show(fieldValue(r, 'Name'))}, last written ${show(name)}`,
          how,
        );
      }
      for (const code of deleted)
        expectRule(
          !got.has(code),
          'REST.SEQ.UPDATES_AFTER',
          () => `updates_after=${since} returns ${code}, which was deleted`,
          how,
        );
    },
    // in every run: a record updated after its create (its latest values), another created and deleted
    { numRuns: 10, writes: true, examples: [[[CREATE, UPDATE_FIRST, CREATE, { kind: 'delete', target: 1 }]]] },
  );

  ruleProperty(
    ['REST.SEQ.DELETES_AFTER', 'REST.SEQ.CHANGE_FEED'],
    'deletes_after=N lists the records deleted after N and none that still exist',
    [opsArb.map((ops) => [...ops, { kind: 'delete', target: 0 } as Op])],
    async (ctx, ops) => {
      const { since, live, deleted } = await apply(ctx, ops, true);
      const p = await feed(ctx, 'deletes_after', since, 'REST.SEQ.DELETES_AFTER');
      const got = new Set(p.records.map(codeOf));
      // a record deleted after N is what a server ignoring deletes_after (or listing nothing) leaves out
      const how = decisiveWhen(
        'REST.SEQ.DELETES_AFTER',
        deleted.size > 0,
        `no ${REGISTER} record was deleted after ${since}`,
      );
      for (const code of deleted)
        expectRule(
          got.has(code),
          'REST.SEQ.DELETES_AFTER',
          () => `deletes_after=${since} does not list ${REGISTER} ${code}, deleted after ${since}`,
          how,
        );
      for (const code of live.keys())
        expectRule(
          !got.has(code),
          'REST.SEQ.DELETES_AFTER',
          () => `deletes_after=${since} lists ${REGISTER} ${code}, which exists`,
          how,
        );
    },
    // in every run: one record deleted, one that still exists
    { numRuns: 10, writes: true, examples: [[[CREATE, CREATE, DELETE_FIRST]]] },
  );

  ruleProperty(
    ['REST.SEQ.HEADER_FEEDS_UPDATES_AFTER', 'REST.SEQ.HEADER'],
    'the Sequence header of an answer, passed as updates_after, returns only records changed after that answer',
    [opsArb, opsArb],
    async (ctx, before, later) => {
      await apply(ctx, before, false);
      const env = await ctx.client.rest.list(REGISTER, { limit: 1 } as never, { format: 'json' });
      assertSequenceHeader(env);
      const header = BigInt(env.sequenceHeader!.trim());
      const { live } = await apply(ctx, later, false);
      const p = await feed(ctx, 'updates_after', header, 'REST.SEQ.HEADER_FEEDS_UPDATES_AFTER');
      const how = await feedSeparates(ctx, header, live.size, 'REST.SEQ.HEADER_FEEDS_UPDATES_AFTER');
      const got = new Set(p.records.map(codeOf));
      for (const r of p.records) {
        const seq = fieldValue(r, '@sequence');
        expectRule(
          /^\d+$/.test(seq) && BigInt(seq) > header,
          'REST.SEQ.HEADER_FEEDS_UPDATES_AFTER',
          () => `updates_after=${header} (a Sequence header) returned ${show(r['@url'])} with @sequence ${show(seq)}`,
          how,
        );
      }
      for (const code of live.keys())
        expectRule(
          got.has(code),
          'REST.SEQ.HEADER_FEEDS_UPDATES_AFTER',
          () => `updates_after=${header} misses ${code}, written after that answer`,
          how,
        );
    },
    // in every run: a record written before the answer whose header is taken, and one after it
    { numRuns: 10, writes: true, examples: [[[CREATE], [CREATE]]] },
  );

  const baselines = new Baselines();
  ruleProperty(
    'REST.SEQ.UPDATES_AFTER',
    'on existing data, updates_after=N returns exactly the records whose @sequence is above N',
    async (ctx) => {
      const records = (await baselines.all(ctx, REGISTER)) ?? [];
      const seqs = records.map((r) => fieldValue(r, '@sequence')).filter((s) => /^\d+$/.test(s));
      if (seqs.length === 0) ctx.skip(`the target has no ${REGISTER} records with a @sequence to read a feed from`);
      return [fc.constantFrom(...seqs)];
    },
    async (ctx, n) => {
      let how: Decisiveness | undefined;
      const decided = () => how;
      await judgeStable(
        ctx,
        baselines,
        REGISTER,
        'REST.SEQ.UPDATES_AFTER',
        async () => {
          const above = (r: AnyRecord) => {
            const s = fieldValue(r, '@sequence');
            return /^\d+$/.test(s) && BigInt(s) > BigInt(n);
          };
          const all = (await baselines.all(ctx, REGISTER)) ?? [];
          const want = new Set(all.filter(above).map(codeOf));
          // records at or below N are what a server ignoring updates_after returns too
          how = decisiveWhen(
            'REST.SEQ.UPDATES_AFTER',
            want.size < all.length,
            `every ${REGISTER} record has a @sequence above ${n}`,
          );
          const p = await feed(ctx, 'updates_after', BigInt(n), 'REST.SEQ.UPDATES_AFTER');
          const got = new Set(p.records.map(codeOf));
          // a record the baseline does not hold but whose own @sequence is above N was written since (by another
          // test): it belongs in the feed; only one the baseline holds below N, or one answered below N, does not
          const extra = p.records.find(
            (r) => !want.has(codeOf(r)) && !(above(r) && !all.some((b) => codeOf(b) === codeOf(r))),
          );
          if (extra)
            return `updates_after=${n} returns ${codeOf(extra)}, whose @sequence ${show(fieldValue(extra, '@sequence'))} is not above ${n}`;
          const missing = [...want].find((c) => !got.has(c));
          if (missing) return `updates_after=${n} misses ${missing}, whose @sequence is above ${n}`;
          return undefined;
        },
        3,
        decided,
      );
    },
    { numRuns: 10 },
  );
});
