import type { PortalHandler } from '../handler.js';
import { ACTIVITY_STATES } from '../registers.js';
import { attrs, recordElementXml } from '../xml.js';
import { LIST_DEFS } from './list-defs.js';
import { parseListRequest } from './list-params.js';
import { queryList } from './record-lists.js';

/** Cards per column when `maxsize` is absent (the default is not shown; README "Kanban"). */
export const KANBAN_MAXSIZE_DEFAULT = 20;

/**
 * `register=Kanban`: the activities (ActVc) as a board, one `<column state count>` per activity state
 * (ActState) holding at most `maxsize` cards (§4 rule 8, §8 "Kanban column size: set by the maxsize
 * parameter"); `count` is the column's full size. `usercode` keeps the user's activities (MainPersons);
 * `search`, `sd`, `ed`, `bfilter` (ActType), `sortkey` and `order` work as for the ActVc list. The response
 * is not shown (rule 14): `<data><res errstr=""/><column ...><ActVc>...</ActVc></column>...</data>`.
 */
const kanban: PortalHandler = {
  kind: 'list',
  name: 'Kanban',
  handle(ctx) {
    const def = LIST_DEFS.ActVc!;
    const req = parseListRequest(ctx, 'Kanban', def.fields);
    const maxsize = ctx.params.int('maxsize', { min: 1, max: 1000, dflt: KANBAN_MAXSIZE_DEFAULT });
    const { rows } = queryList(ctx, def, req, true);
    const columns = new Map<string, [string, string][][]>();
    for (const r of rows) {
      const state = r.find(([f]) => f === 'ActState')?.[1] ?? '';
      if (!columns.has(state)) columns.set(state, []);
      columns.get(state)!.push(r);
    }
    // column order: the known activity states first, in board order, then any other state by name
    const rank = (s: string) => {
      const i = ACTIVITY_STATES.indexOf(s);
      return i < 0 ? ACTIVITY_STATES.length : i;
    };
    const states = [...columns.keys()].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
    let body = '';
    for (const state of states) {
      const cards = columns.get(state)!;
      body += `<column${attrs({ state, count: cards.length })}>`;
      body += cards
        .slice(0, maxsize)
        .map((c) => recordElementXml('ActVc', c))
        .join('');
      body += '</column>';
    }
    return { xml: `<data${attrs({ maxsize })}><res errstr=""/>${body}</data>\n` };
  },
};

export const kanbanHandlers: readonly PortalHandler[] = [kanban];
