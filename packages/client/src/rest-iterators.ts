import type { Clock } from './clock.js';
import { HttpStatusError } from './errors.js';
import type { RestCallOptions, RestClient } from './rest-client.js';
import type { RegisterName, RestEnvelope, RestListQuery, RestRecord } from './rest-types.js';

/** Options of {@link restPages}. */
export interface PageOptions extends RestCallOptions {
  /** Records per request (`limit`). The docs suggest 1,000 to 5,000 for large reads (§4 rule 12). */
  readonly pageSize: number;
  /** Stop after this many pages. @defaultValue unlimited */
  readonly maxPages?: number;
  /** Pause between pages, in ms (the docs ask for about one second between large reads). @defaultValue 0 */
  readonly pauseMs?: number;
}

/**
 * Walks `offset`/`limit` pages (record-rest-api.md §4: "offset 0, 5, 10 with limit 5 give successive pages")
 * until a page holds fewer than `pageSize` records. A page with more than `pageSize` records (a server that
 * ignores `limit`) ends the walk after it is yielded.
 */
export async function* restPages<R extends RegisterName>(
  rest: RestClient,
  clock: Clock,
  register: R,
  query: RestListQuery<R> = {},
  options: PageOptions,
): AsyncGenerator<RestEnvelope<R>, void, undefined> {
  const { pageSize, maxPages, pauseMs, ...call } = options;
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError(`pageSize must be a whole number >= 1: ${pageSize}`);
  let offset = Number(query.offset ?? 0);
  for (let page = 0; maxPages === undefined || page < maxPages; page++) {
    if (page > 0 && pauseMs) await clock.sleep(pauseMs);
    const env = await rest.list(register, { ...query, limit: pageSize, offset } as RestListQuery<R>, call);
    yield env;
    if (env.records.length !== pageSize) return;
    offset += pageSize;
  }
}

/** The records of {@link restPages}, one by one. */
export async function* restRecords<R extends RegisterName>(
  rest: RestClient,
  clock: Clock,
  register: R,
  query: RestListQuery<R> = {},
  options: PageOptions,
): AsyncGenerator<RestRecord<R>, void, undefined> {
  for await (const env of restPages(rest, clock, register, query, options)) yield* env.records;
}

/** One event of a sequence feed. */
export type FeedEvent<R extends string = string> =
  /** A record changed after `since` (`updates_after`). */
  | { readonly kind: 'updated'; readonly record: RestRecord<R> }
  /** A deletion after `since` (`deletes_after`), as the server reports it (the shape is not shown). */
  | { readonly kind: 'deleted'; readonly record: Record<string, unknown> }
  /**
   * The server cannot answer the query: real servers answer `updates_after` on a register without a sync index with
   * 404 and a plain-text explanation (DESIGN.md).
   */
  | {
      readonly kind: 'unavailable';
      readonly query: 'updates_after' | 'deletes_after';
      readonly status: number;
      readonly text: string;
    }
  /** The last event: the sequence value to pass as `since` next time, and what this round saw. */
  | {
      readonly kind: 'end';
      readonly since: string;
      readonly next: string;
      readonly updated: number;
      readonly deleted: number;
    };

/** Options of {@link restFeed}. */
export interface FeedOptions extends RestCallOptions {
  /** The last sequence value seen (`updates_after` / `deletes_after`). */
  readonly since: number | string;
  /** Query updates. @defaultValue true */
  readonly updates?: boolean;
  /** Query deletions. @defaultValue true */
  readonly deletes?: boolean;
  /** Page the update query with `limit`/`offset`; one request when absent. */
  readonly pageSize?: number;
  /** Other list parameters for the update query (`fields`, `filter.<F>`). */
  readonly query?: RestListQuery;
}

function maxSequence(a: string, b: string | undefined): string {
  if (b === undefined || !/^\d+$/.test(b)) return a;
  return !/^\d+$/.test(a) || BigInt(b) > BigInt(a) ? b : a;
}

/**
 * One round of the sequence feed (record-rest-api.md §4 rule 6, §6): records changed after `since`, then
 * deletions after `since`, then `end` with the next sequence value. That value is the `Sequence` header of the first
 * answer (else its `data@sequence`, else the highest record `@sequence`), taken before the deletions are read, so
 * nothing is skipped. A 404 without an ERP error body yields `unavailable`; a 204 is an empty answer.
 */
export async function* restFeed<R extends RegisterName>(
  rest: RestClient,
  clock: Clock,
  register: R,
  options: FeedOptions,
): AsyncGenerator<FeedEvent<R>, void, undefined> {
  const { since, updates = true, deletes = true, pageSize, query = {}, ...call } = options;
  const from = String(since);
  let next: string | undefined;
  let updated = 0;
  let deleted = 0;
  let highest = from;
  const answered = (env: RestEnvelope<R>) => {
    next ??= env.sequenceHeader ?? env.sequence;
  };
  const unavailable = (err: unknown, q: 'updates_after' | 'deletes_after'): FeedEvent<R> | undefined =>
    err instanceof HttpStatusError && err.status === 404
      ? { kind: 'unavailable', query: q, status: err.status, text: err.bodyText }
      : undefined;

  if (updates) {
    const q = { ...query, updates_after: from } as RestListQuery<R>;
    try {
      const envs = pageSize
        ? restPages(rest, clock, register, q, { ...call, pageSize })
        : single(rest, register, q, call);
      for await (const env of envs) {
        answered(env);
        for (const record of env.records) {
          updated++;
          highest = maxSequence(highest, (record as { '@sequence'?: string })['@sequence']);
          yield { kind: 'updated', record };
        }
      }
    } catch (err) {
      const event = unavailable(err, 'updates_after');
      if (!event) throw err;
      yield event;
    }
  }
  if (deletes) {
    try {
      const env = await rest.list(register, { deletes_after: from } as RestListQuery<R>, call);
      answered(env);
      for (const record of env.records) {
        deleted++;
        yield { kind: 'deleted', record };
      }
    } catch (err) {
      const event = unavailable(err, 'deletes_after');
      if (!event) throw err;
      yield event;
    }
  }
  yield { kind: 'end', since: from, next: next ?? highest, updated, deleted };
}

async function* single<R extends RegisterName>(
  rest: RestClient,
  register: R,
  query: RestListQuery<R>,
  call: RestCallOptions,
): AsyncGenerator<RestEnvelope<R>, void, undefined> {
  yield await rest.list(register, query, call);
}
