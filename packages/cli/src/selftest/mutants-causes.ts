/**
 * Mutants of issue 28 "Causes before symptoms": each breaks one behaviour that other checks either combine with a
 * second probe (a decoy parameter, several rows) or pass their data through (the form POST's row index, the
 * un-confirm). The suite must FAIL the broken rule; a FAIL of a rule whose data went through the broken behaviour
 * follows from it (`causedBy`, not counted against precision); no other rule FAILs.
 */
import type { Mutant, ProxyRequest } from './proxy.js';
import { isPortal, portalAction, queryOf, restRegister, text, withQuery } from './wire.js';

const isForm = (req: ProxyRequest) => /x-www-form-urlencoded/i.test(String(req.headers['content-type'] ?? ''));

/** The documented failure forms (portal §7): a non-empty errstr, an `<error>` element, or an HTTP error. */
const refused = (status: number, body: string) => status >= 400 || /errstr="[^"]+"|<error[\s>]/.test(body);

/** The rows of a deleterow id `{SerNr}:{rows}` with `extra` added, or undefined when it is not one. */
function withRow(id: string, extra: (rows: number[]) => number): string | undefined {
  const m = /^([^:]+):(\d+(?:,\d+)*)$/.exec(id);
  if (!m) return undefined;
  const rows = m[2]!.split(',').map(Number);
  const n = extra(rows);
  return n < 1 || rows.includes(n) ? undefined : `${m[1]}:${[...rows, n].join(',')}`;
}

export function causeMutants(): Mutant[] {
  return [
    {
      id: 'lookup-search-decoy',
      description: 'pastespecial takes the search text from a search parameter when one is sent, not from id',
      breaks: ['PORTAL.LOOKUP.ID_IS_SEARCH'],
      select: 'PORTAL.LOOKUP.*',
      request: (req) => {
        const search = queryOf(req).get('search');
        return portalAction(req) === 'pastespecial' && search !== null
          ? withQuery(req, (q) => q.set('id', search))
          : req;
      },
    },
    {
      id: 'deleterow-one-more',
      description:
        'deleterow removes the listed rows and one more (the row after the last listed, else the one before)',
      breaks: ['PORTAL.ROWS.DELETEROW_REMOVES'],
      select: 'PORTAL.ROWS.*',
      exchange: async (req, send) => {
        if (portalAction(req) !== 'deleterow') return undefined;
        const id = queryOf(req).get('id') ?? '';
        // the row after the last one listed, where the record has it; else the one before the first
        for (const pick of [(rows: number[]) => Math.max(...rows) + 1, (rows: number[]) => Math.min(...rows) - 1]) {
          const more = withRow(id, pick);
          if (more === undefined) continue;
          const res = await send(withQuery(req, (q) => q.set('id', more)));
          // a row beyond the record is refused and changes nothing (the server's own check): try the other side
          if (!refused(res.status, text(res))) return res;
        }
        return undefined;
      },
    },
    {
      id: 'form-row-index-1-based',
      description: 'set_row_field.<N> counts rows from 1: row 0 of a form POST or PATCH is dropped, row N is row N-1',
      breaks: ['REST.WRITE.FORM_ROW_INDEX'],
      // the rules whose tests write rows through the form POST FAIL as its followers (causedBy)
      select: 'REST.WRITE.*,REST.RECORD.ROW_TYPES',
      request: (req) => {
        if ((req.method !== 'POST' && req.method !== 'PATCH') || isPortal(req) || !isForm(req)) return req;
        if (req.method === 'POST' && !restRegister(req)) return req;
        const form = new URLSearchParams(req.body.toString('utf8'));
        if (![...form.keys()].some((k) => k.startsWith('set_row_field.'))) return req;
        const out = new URLSearchParams();
        for (const [k, v] of form) {
          const m = /^set_row_field\.(\d+)\.(.*)$/.exec(k);
          if (!m) out.append(k, v);
          else if (Number(m[1]) >= 1) out.append(`set_row_field.${Number(m[1]) - 1}.${m[2]}`, v);
        }
        return { ...req, body: Buffer.from(out.toString(), 'utf8') };
      },
    },
    {
      id: 'unok-leaves-confirmed',
      description: 'unokrecord answers errstr="" and leaves the record confirmed (OKFlag 1)',
      breaks: ['PORTAL.UNOK.TO_DRAFT'],
      // the model-based test (REST.WRITE.UPDATE_PATCH, PORTAL.DELETE.ACTION, the feed) meets the record afterwards
      select: 'PORTAL.UNOK.*,REST.WRITE.UPDATE_PATCH',
      // the server's own unokrecord runs, so that its refusals (a draft, a user without the permission) stay as they
      // are; what it un-confirmed is confirmed again before the success goes back
      exchange: async (req, send) => {
        if (portalAction(req) !== 'unokrecord') return undefined;
        const res = await send(req);
        if (refused(res.status, text(res))) return res;
        const q = queryOf(req);
        const regname = q.get('regname') ?? '';
        const id = q.get('id') ?? '';
        const auth = Object.fromEntries(
          ['authorization', 'cookie'].flatMap((h) => (req.headers[h] !== undefined ? [[h, req.headers[h]]] : [])),
        );
        await send({
          method: 'PATCH',
          url: `/api/1/${encodeURIComponent(regname)}/${encodeURIComponent(id)}?compcode=${q.get('compno') ?? '1'}`,
          headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: Buffer.from('set_field.OKFlag=1', 'utf8'),
        });
        return res;
      },
    },
  ];
}
