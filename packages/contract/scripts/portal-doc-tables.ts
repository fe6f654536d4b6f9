/**
 * Reads the lists and tables of docs/portal-action-api.md that the portal spec is checked against: the action
 * list of §1, the endpoint table of §4, "Registers per operation", "Result element shapes" and the JSON body
 * tables. The tests compare the spec with these, so that no list is copied by hand into a test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One parameter of an endpoint-table row: `id`, `usercode (required, approver)`, `action=login`. */
export interface DocParam {
  readonly name: string;
  /** The text after `=`, backticks removed (`login`, `{SerNr}:{rows}`). */
  readonly value?: string;
  /** The text in parentheses (`required, approver`, `optional`, `uuid`). */
  readonly qualifier?: string;
}

/** One row of the endpoint table (§4). */
export interface EndpointRow {
  readonly operation: string;
  readonly method: string;
  readonly params: readonly DocParam[];
  /** The `action` value, or undefined for the list query. */
  readonly action?: string;
  /** With `action=action`: the sub-action names of the row (three for "User lists"). */
  readonly subActions: readonly string[];
  readonly body: string;
  readonly result: string;
}

/** The parsed document. */
export interface PortalDoc {
  readonly text: string;
  /** GitHub-style slugs of every heading. */
  readonly headingSlugs: ReadonlySet<string>;
  /** §1 "Values:" of the `action` parameter. */
  readonly actions: readonly string[];
  readonly endpoints: readonly EndpointRow[];
  /** "Registers per operation": operation cell -> register names, qualifiers such as `(est)` removed. */
  readonly registersPerOperation: ReadonlyMap<string, readonly string[]>;
  /** "Result element shapes (XML)": shape cell -> fields cell. */
  readonly resultShapes: ReadonlyMap<string, string>;
  /** A table under a heading, as rows of trimmed cells, header and separator dropped. */
  table(heading: string): string[][];
  /** The numbered operation rules of §4, by number. */
  readonly operationRules: ReadonlyMap<number, string>;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Splits on commas outside parentheses and backticks. */
function splitTopLevel(cell: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let tick = false;
  let cur = '';
  for (const ch of cell) {
    if (ch === '`') tick = !tick;
    else if (!tick && ch === '(') depth++;
    else if (!tick && ch === ')') depth--;
    if (ch === ',' && depth === 0 && !tick) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** Parses the "Query parameters" cell of an endpoint row. */
export function parseParamCell(cell: string): { params: DocParam[]; subActions: string[] } {
  let rest = cell;
  const subActions: string[] = [];
  // "register = getportalusers, getadminusers or getallusers": one row, several sub-actions
  const multi = /register\s*=\s*(\w+(?:,\s*\w+)*\s+or\s+\w+)/.exec(rest);
  if (multi) {
    subActions.push(...multi[1]!.split(/,\s*|\s+or\s+/));
    rest = rest.replace(multi[0], 'register=*');
  }
  const params = splitTopLevel(rest).map((token): DocParam => {
    const eq = /^(\w+)\s*=\s*(.+)$/.exec(token);
    if (eq) return { name: eq[1]!, value: eq[2]!.replace(/`/g, '').trim() };
    const m = /^(\w+)(?:\s*\((.*)\))?$/.exec(token);
    if (!m) throw new Error(`portal-action-api.md §4: cannot read parameter "${token}"`);
    return m[2] ? { name: m[1]!, qualifier: m[2] } : { name: m[1]! };
  });
  for (const p of params) if (p.name === 'register' && p.value && p.value !== '*') subActions.push(p.value);
  return { params, subActions };
}

/** Reads and parses docs/portal-action-api.md. */
export function readPortalDoc(docsDir: string): PortalDoc {
  const text = readFileSync(join(docsDir, 'portal-action-api.md'), 'utf8');
  const lines = text.split('\n');
  const headingSlugs = new Set(lines.filter((l) => /^#{1,6} /.test(l)).map((l) => headingSlug(l.replace(/^#+ /, ''))));

  const table = (heading: string): string[][] => {
    const start = lines.findIndex((l) => /^#{1,6} /.test(l) && l.replace(/^#+ /, '').trim() === heading);
    if (start < 0) throw new Error(`portal-action-api.md: no heading "${heading}"`);
    const first = lines.findIndex((l, i) => i > start && l.startsWith('|'));
    const rows: string[][] = [];
    for (let i = first; i < lines.length && lines[i]!.startsWith('|'); i++) {
      rows.push(
        lines[i]!.split('|')
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    }
    return rows.slice(2);
  };

  const valuesLine = lines.find((l) => l.includes('The operation is chosen by the query parameter `action`'));
  const actions = [...(valuesLine?.split('Values:')[1] ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1]!);

  const endpoints = table('4. Endpoints').map(([operation, method, query, body, result]): EndpointRow => {
    const { params, subActions } = parseParamCell(query!);
    const action = params.find((p) => p.name === 'action')?.value;
    return { operation: operation!, method: method!, params, action, subActions, body: body!, result: result! };
  });

  const registersPerOperation = new Map(
    table('Registers per operation').map(([op, regs]) => [
      op!,
      regs!
        .split(',')
        .map((r) =>
          r
            .replace(/\(.*?\)/g, '')
            .replace(/\bonly\b/, '')
            .trim(),
        )
        .filter(Boolean),
    ]),
  );
  const resultShapes = new Map(table('Result element shapes (XML)').map(([shape, fields]) => [shape!, fields!]));

  const rulesStart = lines.findIndex((l) => l.trim() === '### Operation rules');
  const operationRules = new Map<number, string>();
  for (const l of lines.slice(rulesStart + 1)) {
    if (l.startsWith('#')) break;
    const m = /^(\d+)\. (.*)$/.exec(l);
    if (m) operationRules.set(Number(m[1]), m[2]!);
  }
  return { text, headingSlugs, actions, endpoints, registersPerOperation, resultShapes, table, operationRules };
}
