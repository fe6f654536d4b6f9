import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createForm, createJson, probe, registersWithData, UnledgeredRecordError, uniqueCode } from './data.js';
import type { RuleContext } from './rule-test.js';

const dir = mkdtempSync(join(tmpdir(), 'erpcert-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A context whose client answers every create with `records`. */
function fakeCtx(records: Record<string, unknown>[], ledger = join(dir, `${Math.random()}.jsonl`)) {
  const answer = async () => ({ records, hasEnvelope: true });
  const ctx = {
    name: '[REST.WRITE.CREATE_FORM] t',
    target: { runTag: 'ECAB12', ledger, compcode: 3 },
    client: { rest: { createForm: answer, createJson: answer } },
  } as unknown as RuleContext;
  const lines = () =>
    readFileSync(ledger, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { ctx, lines };
}

describe('uniqueCode', () => {
  it('starts with the run tag and never repeats', () => {
    const ctx = { target: { runTag: 'ECAB12' } } as RuleContext;
    const codes = Array.from({ length: 50 }, () => uniqueCode(ctx));
    expect(new Set(codes).size).toBe(50);
    for (const c of codes) expect(c).toMatch(/^ECAB12[0-9A-Z]{4,}$/);
    expect(uniqueCode(ctx, 'X')).toMatch(/X$/);
  });

  it('never makes with an extra suffix a code it makes without one (counter 1 + "A" against counter 1A)', () => {
    const ctx = { target: { runTag: 'ECAB12' } } as RuleContext;
    const withExtra = new Set(Array.from({ length: 60 }, () => uniqueCode(ctx, 'A')));
    const plain = Array.from({ length: 2000 }, () => uniqueCode(ctx));
    expect(plain.filter((c) => withExtra.has(c))).toEqual([]);
  });
});

describe('created records go into the ledger', () => {
  it('by the key of @url, decoded, composite parts joined by /', async () => {
    const { ctx, lines } = fakeCtx([{ '@url': '/api/1/PLVc/VIP/A%2F1', PLCode: 'VIP', ArtCode: 'A/1' }]);
    const created = await createForm(ctx, 'PLVc', { PLCode: 'VIP', ArtCode: 'A/1' });
    expect(created.key).toBe('VIP/A/1');
    expect(lines()).toEqual([
      expect.objectContaining({ register: 'PLVc', key: 'VIP/A/1', company: 3, test: '[REST.WRITE.CREATE_FORM] t' }),
    ]);
  });

  it('by the key fields sent when the answer names none, one line per record', async () => {
    const { ctx, lines } = fakeCtx([]);
    const created = await createJson(ctx, 'CUVc', [{ Code: 'ECAB12A' }, { Code: 'ECAB12B' }]);
    expect(created.map((c) => c.key)).toEqual(['ECAB12A', 'ECAB12B']);
    expect(lines().map((l) => l.key)).toEqual(['ECAB12A', 'ECAB12B']);
  });

  it('refuses to go on with a record whose key cannot be told', async () => {
    const { ctx } = fakeCtx([{ Name: 'no key' }]);
    await expect(createForm(ctx, 'IVVc', { CustCode: 'C1' })).rejects.toThrow(UnledgeredRecordError);
  });
});

describe('probe concludes "no records" only from an envelope that validates', () => {
  /** A context whose client answers every JSON list with `doc` (no records, as the client reads a broken one). */
  function listCtx(docs: Record<string, unknown>) {
    const list = async (register: string) => ({
      format: 'json',
      records: [],
      hasEnvelope: false,
      raw: { status: 200, text: JSON.stringify(docs[register]) },
    });
    return { client: { rest: { list } } } as unknown as RuleContext;
  }
  const emptyOf = (register: string) => ({
    data: { '@register': register, '@sequence': '5', '@systemversion': '1.0', [register]: [] },
  });
  const empty = emptyOf('SDVc');

  it('an empty register whose envelope validates has no records', async () => {
    expect(await probe(listCtx({ SDVc: empty }), 'SDVc')).toMatchObject({ ok: true, records: [] });
  });

  it('a data that is null or removed FAILs the rule that owns data, not "no records"', async () => {
    await expect(probe(listCtx({ SDVc: { data: null } }), 'SDVc')).rejects.toThrow('[REST.QUERY.LIST_RECORDS]');
    await expect(probe(listCtx({ SDVc: {} }), 'SDVc')).rejects.toThrow('[REST.QUERY.LIST_RECORDS]');
  });

  it('a pick of registers leaves a broken one out without a verdict', async () => {
    const ctx = listCtx({ SDVc: { data: null }, ExpVc: emptyOf('ExpVc') });
    expect(await probe(ctx, 'SDVc', {}, { broken: 'absent' })).toMatchObject({ ok: false });
    expect(await registersWithData(ctx, ['SDVc', 'ExpVc'], 0)).toEqual(['ExpVc']);
  });
});

describe('registersWithData', () => {
  /** A target whose registers hold the given numbers of records; counts the reads. */
  function target(counts: Record<string, number>) {
    const reads: string[] = [];
    const ctx = {
      client: {
        rest: {
          list: async (register: string) => {
            reads.push(register);
            return { records: Array.from({ length: counts[register] ?? 0 }, () => ({})) };
          },
        },
      },
    } as unknown as RuleContext;
    return { ctx, reads };
  }

  it('keeps the registers with data in the order given', async () => {
    const { ctx, reads } = target({ A: 1, C: 3 });
    expect(await registersWithData(ctx, ['A', 'B', 'C'])).toEqual(['A', 'C']);
    expect(reads).toEqual(['A', 'B', 'C']);
  });

  it('stops reading once enough are found (the gate profile)', async () => {
    const { ctx, reads } = target({ A: 1, B: 0, C: 2, D: 5 });
    expect(await registersWithData(ctx, ['A', 'B', 'C', 'D'], 1, 2)).toEqual(['A', 'C']);
    expect(reads).toEqual(['A', 'B', 'C']);
  });
});
