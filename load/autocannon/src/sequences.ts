import { formBody } from '@erpcert/client';
import {
  checkCreated,
  checkDocument,
  checkListPage,
  checkLookup,
  checkReadPage,
  checkSync,
  quickCheck,
  recordSequences,
  recordUrls,
  sampleEvery,
} from './checks.js';
import type { RequestContext, ScenarioRequest } from './open-model.js';
import type { ScenarioData } from './setup.js';
import type { TargetRequests } from './target.js';

/** The register the read and sync scenarios use: journal entries (record-rest-api.md §8 "Reading 10,000 transactions"). */
export const READ_REGISTER = 'TRVc';

/** The 10 fields of `read-fields`: the 7 TRVc header fields and the 3 amount fields of its rows (§2 TRVc). */
export const TEN_FIELDS = [
  'Number',
  'RegDate',
  'TransDate',
  'DSum',
  'CSum',
  'DiffVal',
  'IntYc',
  'AccNumber',
  'DebVal',
  'CredVal',
] as const;

const FORM = 'application/x-www-form-urlencoded; charset=UTF-8';

/**
 * Request bodies computed before the load starts, each with its own tag (`<runTag>-<n>`), handed out in
 * order; more are made on demand when retries after timeouts need them.
 */
export class PrecomputedBodies {
  readonly #make: (tag: string) => string;
  readonly #runTag: string;
  readonly #bodies: { tag: string; body: string }[] = [];
  #next = 0;

  constructor(runTag: string, count: number, make: (tag: string) => string) {
    this.#make = make;
    this.#runTag = runTag;
    for (let i = 0; i < count; i++) this.#bodies.push(this.#at(i));
  }

  #at(i: number) {
    const tag = `${this.#runTag}-${i + 1}`;
    return { tag, body: this.#make(tag) };
  }

  /** The next unused body and its tag. */
  take(): { tag: string; body: string } {
    const i = this.#next++;
    return this.#bodies[i] ?? this.#at(i);
  }
}

/** Full checks of every n-th response by default; the others get {@link quickCheck}. */
export const FULL_CHECK_EVERY = 16;

/** Invoices: a form POST of a confirmed 1-row sales invoice (§3: `set_field.OKFlag=1`; §4 "Create records, form"). */
export function invoiceSequence(
  t: TargetRequests,
  d: ScenarioData,
  runTag: string,
  count: number,
  fullCheckEvery = FULL_CHECK_EVERY,
): ScenarioRequest[] {
  const full = sampleEvery(fullCheckEvery);
  const bodies = new PrecomputedBodies(runTag, count, (tag) =>
    formBody({ CustCode: d.customer, OKFlag: '1' }, [{ ArtCode: d.item, Quant: '1', Spec: tag }]),
  );
  const path = t.restPath('IVVc');
  const headers = { ...t.headers, 'content-type': FORM };
  return [
    {
      method: 'POST',
      build(ctx) {
        const { tag, body } = bodies.take();
        ctx.tag = tag;
        return { path, headers, body };
      },
      check: (status, body, h, ctx) =>
        quickCheck(status, body, h, true) ??
        (full() ? checkCreated(status, body, 'IVVc', ctx.tag as string, true) : undefined),
      completesOperation: true,
    },
  ];
}

function journalBody(d: ScenarioData, tag: string): string {
  const [debit, credit] = d.accounts ?? ['', ''];
  // a balanced 2-row journal entry (§8 "creating 2-row financial transactions"); the tag rides in the row Comment
  return formBody({}, [
    { AccNumber: debit, DebVal: '1.00', Comment: tag },
    { AccNumber: credit, CredVal: '1.00', Comment: tag },
  ]);
}

/** Transactions: a form POST of a balanced 2-row journal entry (TRVc). */
export function transactionSequence(
  t: TargetRequests,
  d: ScenarioData,
  runTag: string,
  count: number,
  fullCheckEvery = FULL_CHECK_EVERY,
): ScenarioRequest[] {
  const full = sampleEvery(fullCheckEvery);
  const bodies = new PrecomputedBodies(runTag, count, (tag) => journalBody(d, tag));
  const path = t.restPath(READ_REGISTER);
  const headers = { ...t.headers, 'content-type': FORM };
  return [
    {
      method: 'POST',
      build(ctx) {
        const { tag, body } = bodies.take();
        ctx.tag = tag;
        return { path, headers, body };
      },
      check: (status, body, h, ctx) =>
        quickCheck(status, body, h, true) ??
        (full() ? checkCreated(status, body, READ_REGISTER, ctx.tag as string, false) : undefined),
      completesOperation: true,
    },
  ];
}

/**
 * Reads: `records` TRVc in offset/limit pages of `batch` (§4 rule 12), raw or with `fields`. Besides each page's
 * own count, no record may come twice across the pages (a server that ignores `offset` would pass the counts).
 */
export function readSequence(
  t: TargetRequests,
  records: number,
  batch: number,
  fields?: readonly string[],
): ScenarioRequest[] {
  const pages = Math.ceil(records / batch);
  const seen = new Set<string>();
  return Array.from({ length: pages }, (_, k) => {
    const expected = Math.min(batch, records - k * batch);
    const query: [string, string][] = [
      ...(fields ? [['fields', fields.join(',')] as [string, string]] : []),
      ['limit', String(expected)],
      ['offset', String(k * batch)],
    ];
    const path = t.restPath(READ_REGISTER, query);
    return {
      method: 'GET' as const,
      build: () => ({ path, headers: t.headers }),
      check(status: number, body: string) {
        const failure = checkReadPage(status, body, READ_REGISTER, expected);
        if (failure) return failure;
        const urls = recordUrls(body, READ_REGISTER);
        const twice = urls.find((u) => seen.has(u));
        for (const u of urls) seen.add(u);
        return twice === undefined ? undefined : `record ${twice} came twice across the pages`;
      },
      completesOperation: true,
    };
  });
}

/**
 * Sync: write one journal entry, then read `updates_after=<its sequence - 1>` (§4 rule 6, §6): the answer must
 * hold only records written after that sequence, and the one just written among them.
 */
export function syncSequence(t: TargetRequests, d: ScenarioData, runTag: string, count: number): ScenarioRequest[] {
  const bodies = new PrecomputedBodies(runTag, count, (tag) => journalBody(d, tag));
  const post = t.restPath(READ_REGISTER);
  const headers = { ...t.headers, 'content-type': FORM };
  return [
    {
      method: 'POST',
      build(ctx: RequestContext) {
        const { tag, body } = bodies.take();
        ctx.tag = tag;
        return { path: post, headers, body };
      },
      check(status, body, _h, ctx) {
        const failure = checkCreated(status, body, READ_REGISTER, ctx.tag as string, false);
        if (failure) return failure;
        const seq = recordSequences(body, READ_REGISTER)[0];
        if (seq === undefined) return 'the created TRVc carries no @sequence (§2 "Record")';
        ctx.after = seq - 1;
        return undefined;
      },
      completesOperation: false,
    },
    {
      method: 'GET',
      build(ctx) {
        const after = typeof ctx.after === 'number' ? ctx.after : 0;
        const query: [string, string][] = [
          ['updates_after', String(after)],
          ['fields', 'Number,IntYc,Comment'],
          ['limit', '1000'],
        ];
        return { path: t.restPath(READ_REGISTER, query), headers: t.headers };
      },
      check(status, body, _h, ctx) {
        if (typeof ctx.after !== 'number') return 'no sequence to sync from: the write before failed';
        return checkSync(status, body, READ_REGISTER, ctx.after, ctx.tag as string);
      },
      completesOperation: true,
    },
  ];
}

/**
 * Portal mix: 3 lookups, 2 list pages and 1 document per pass, sent with the HSESSION cookie only (§5: the
 * session "greatly reduces server load"); ids and search texts rotate through what the setup found.
 */
export function portalMixSequence(t: TargetRequests, d: ScenarioData): ScenarioRequest[] {
  const headers = { 'accept-charset': 'utf-8', cookie: `HSESSION=${d.session ?? ''}` };
  const searches = d.searches ?? ['A'];
  const invoices = d.invoices ?? ['1'];
  let n = 0;
  const pick = <T>(xs: readonly T[]) => xs[n++ % xs.length] as T;
  const get = (query: () => [string, string][], check: ScenarioRequest['check']): ScenarioRequest => ({
    method: 'GET',
    build: () => ({ path: t.portalPath(query()), headers }),
    check,
    completesOperation: true,
  });
  const lookup = get(
    () => [
      ['action', 'pastespecial'],
      ['register', 'INVc'],
      ['id', pick(searches)],
    ],
    (status, body) => checkLookup(status, body, 'INVc'),
  );
  const list = get(
    () => [
      ['register', 'IVVc'],
      ['page', String(1 + (n++ % 5))],
      ['perpage', '20'],
    ],
    (status, body) => checkListPage(status, body),
  );
  const document = get(
    () => [
      ['action', 'document'],
      ['register', 'IVVc'],
      ['id', pick(invoices)],
    ],
    (status, body) => checkDocument(status, body),
  );
  return [lookup, list, lookup, document, lookup, list];
}
