import { describe, expect, it } from 'vitest';
import { observed, parseRegistersFile } from './observed.js';
import { restSpecDocument } from './rest-spec-build.js';
import { validateDocument } from './specs.js';

type Obj = Record<string, unknown>;

/** A team's own registers file (the format of specs/observed-fields.yaml): a register, a block, a field of CUVc. */
const TEAM_FILE = [
  'evidence: our staging ERP, 2026-03',
  'registers:',
  '  - name: TicketVc',
  '    meaning: support tickets',
  '    key: [SerNr]',
  '    fields: [SerNr, CustCode, Subject, Status]',
  '    rowFields: [Note]',
  '    filters: [CustCode]',
  '  - name: QueueBlock',
  '    meaning: ticket queues (settings block)',
  '    block: true',
  '    rowFields: [Queue, Comment]',
  'fields:',
  '  - { register: CUVc, part: header, fields: [LoyaltyLevel] }',
  '',
].join('\n');
const team = parseRegistersFile(TEAM_FILE, 'team.yaml', { taken: new Set() });
const doc = restSpecDocument([team]) as Obj & { paths: Record<string, Obj>; tags: Obj[] };
const schemas = (doc.components as Record<string, Record<string, Obj>>).schemas!;
const responses = (doc.components as Record<string, Record<string, Obj>>).responses!;
const TEAM_MARK = {
  'x-erpcert-standing': 'observed',
  'x-erpcert-observed':
    'served by live servers (our staging ERP, 2026-03); the docs name "more than 38 registers" without listing them',
};
const METHODS = ['get', 'post', 'patch', 'put', 'delete'];
/** The `x-erpcert-*` keys of a node: how it is marked. */
const marks = (node: Obj) => Object.keys(node).filter((k) => k.startsWith('x-erpcert-'));

describe('the REST spec with a team registers file', () => {
  it('validates as OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(validateDocument(doc, 'record-rest with team.yaml')).resolves.toBeTruthy();
  });

  it("holds the team's register paths, every operation marked observed with the team's evidence", () => {
    const items = ['/api/1/TicketVc', '/api/1/TicketVc/{SerNr}', '/api/1/QueueBlock'].map((p) => doc.paths[p]);
    expect(items.every(Boolean)).toBe(true);
    const ops = items.flatMap((item) => METHODS.filter((m) => item![m]).map((m) => item![m] as Obj));
    // list, create, read one, update of TicketVc; the block is read only
    expect(ops).toHaveLength(5);
    for (const op of ops) expect(op).toMatchObject(TEAM_MARK);
    // the list offers filter.<F> only on the file's filters, and no feed: a team register is not a base register
    // unless the file says so (the observed registers' defaults)
    const names = ((doc.paths['/api/1/TicketVc']!.get as Obj).parameters as Obj[]).map((p) => p.name ?? p.$ref);
    expect(names).toContain('filter.CustCode');
    expect(names).not.toContain('filter.Subject');
  });

  it("holds the team's schemas, responses and tags, marked exactly as an observed register's are", () => {
    const observedPlain = observed.registers.find((r) => !r.block && r.rowFields.length > 0)!;
    const observedBlock = observed.registers.find((r) => r.block)!;
    const plain = ['Record', 'Row', 'EnvelopeData', 'Envelope', 'RecordXml', 'RowXml', 'EnvelopeXml']
      .concat(['Form', 'CreateForm', 'RecordInput', 'RowInput', 'CreateJson'])
      .sort();
    const block = ['Row', 'Block', 'Envelope', 'RowXml', 'BlockXml', 'EnvelopeXml'].sort();
    for (const [mine, theirs, suffixes] of [
      ['TicketVc', observedPlain.name, plain],
      ['QueueBlock', observedBlock.name, block],
    ] as const) {
      const own = Object.keys(schemas).filter((s) => s.startsWith(mine));
      expect(own.map((s) => s.slice(mine.length)).sort()).toEqual(suffixes);
      for (const s of own) {
        expect(schemas[s]).toMatchObject(TEAM_MARK);
        expect(marks(schemas[s]!)).toEqual(marks(schemas[`${theirs}${s.slice(mine.length)}`]!));
      }
      expect(responses[`${mine}Envelope`]).toMatchObject(TEAM_MARK);
      expect(doc.tags.find((t) => t.name === mine)).toMatchObject(TEAM_MARK);
    }
    expect(Object.keys((schemas.TicketVcRow!.properties as Obj) ?? {})).toContain('Note');
    expect(Object.keys((schemas.QueueBlockRow!.properties as Obj) ?? {})).toEqual(
      expect.arrayContaining(['Queue', 'Comment']),
    );
  });

  it('marks a field the file adds to a documented register observed, in its records, writes and filters', () => {
    const field = (schemas.CUVcRecord!.properties as Record<string, Obj>).LoyaltyLevel;
    expect(field).toEqual({
      type: 'string',
      'x-erpcert-standing': 'observed',
      'x-erpcert-observed': expect.any(String),
    });
    expect(field!['x-erpcert-observed']).toContain('our staging ERP, 2026-03');
    expect(Object.keys(schemas.CUVcCreateForm!.properties as Obj)).toContain('set_field.LoyaltyLevel');
    const filters = ((doc.paths['/api/1/CUVc']!.get as Obj).parameters as Obj[]).filter(
      (p) => p.name === 'filter.LoyaltyLevel',
    );
    expect(filters).toEqual([expect.objectContaining({ 'x-erpcert-standing': 'observed' })]);
  });

  it('keeps the observed registers with their own evidence', () => {
    for (const reg of observed.registers)
      expect(doc.tags.find((t) => t.name === reg.name)?.['x-erpcert-observed']).toContain(observed.evidence);
  });

  it('refuses a team register that would replace one the document has, instead of overwriting it', () => {
    const clash = parseRegistersFile(
      'evidence: x\nregisters:\n  - name: PRVc\n    meaning: m\n    key: [Code]\n    fields: [Code]\n',
      'clash.yaml',
      { taken: new Set() },
    );
    expect(() => restSpecDocument([clash])).toThrow(/registers file: schema PRVcRecord already exists/);
  });
});
