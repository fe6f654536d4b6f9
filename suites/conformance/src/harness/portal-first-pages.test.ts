/** firstPageIds: one read of page 1 per register for the whole run, the list's key field of each record. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErpError } from '@erpcert/client';
import { afterEach, describe, expect, it } from 'vitest';
import { FIRST_PAGE_QUERY, FIRST_PAGE_REGISTERS, firstPageIds } from './portal-first-pages.js';
import type { RuleContext } from './rule-test.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A worker of a run (its own ledger folder) whose portal lists answer `answer(register)`. */
function worker(ledger: string, answer: (register: string) => Promise<unknown>) {
  const asked: { register: string; query: unknown }[] = [];
  const ctx = {
    target: { ledger },
    signal: new AbortController().signal,
    client: {
      portal: {
        list: (register: string, query: unknown) => {
          asked.push({ register, query });
          return answer(register);
        },
      },
    },
  } as unknown as RuleContext;
  return { ctx, asked };
}

const refused = () =>
  new ErpError('errstr', [{ description: 'Register not supported' }], { operation: 'list', status: 200 } as never);

describe('firstPageIds', () => {
  it('reads page 1 of each register once per run and answers the ids in list order, none for a refused list', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erpcert-first-pages-'));
    dirs.push(dir);
    const ledger = join(dir, 'first-pages-ledger.jsonl');
    const answer = async (register: string) => {
      if (register === 'VIVc') throw refused();
      // every first-page register is keyed by SerNr (LIST_KEY)
      return { records: [{ SerNr: `${register}-2` }, { SerNr: '' }, { SerNr: `${register}-1` }] };
    };
    const one = worker(ledger, answer);
    const ids = await firstPageIds(one.ctx);
    expect(one.asked.map((a) => a.register)).toEqual([...FIRST_PAGE_REGISTERS]);
    expect(one.asked.every((a) => a.query === FIRST_PAGE_QUERY)).toBe(true);
    expect(ids.IVVc).toEqual(['IVVc-2', 'IVVc-1']);
    expect(ids.EPOrderDocVc).toEqual(['EPOrderDocVc-2', 'EPOrderDocVc-1']);
    expect(ids.VIVc).toEqual([]);
    // a later asker of the same run takes the shared answer, not the target's
    const other = worker(ledger, answer);
    expect(await firstPageIds(other.ctx)).toEqual(ids);
    expect(other.asked).toEqual([]);
  });
});
