import { isCalendarDate } from '@erpcert/contract';
import { findUser, groupRights, RIGHTS, reportRight } from '../access.js';
import type { PortalContext, PortalHandler } from '../handler.js';
import { ACCESS_DENIED, PortalError } from '../handler.js';
import { REPORT_LANGS, REPORTS, type ReportDef, type ReportLang } from './report-catalogue.js';

/**
 * The rights of the report user (portal-action-api.md §4 rule 3): `usercode` must name an open user whose
 * access group has report access (`Aruanne`, module level); each report needs `Aruanne:<repname>` too (report
 * level). Anything missing answers exactly `Access denied` (§7 known error text).
 */
function reportRights(ctx: PortalContext): Set<string> {
  const code = ctx.params.get('usercode');
  if (code === undefined || code === '') throw new PortalError(ACCESS_DENIED);
  const user = findUser(ctx.app.store, ctx.company, code);
  if (!user || user.Closed === '1') throw new PortalError(ACCESS_DENIED);
  const rights = groupRights(ctx.app.store, ctx.company, user.AccessGroup ?? '');
  if (!rights.has(RIGHTS.reports)) throw new PortalError(ACCESS_DENIED);
  return rights;
}

const mayRun = (rights: Set<string>, r: ReportDef) => rights.has(reportRight(r.repname));

function langOf(text: string | undefined): ReportLang {
  const lang = (text ?? '').toUpperCase();
  if (lang === '') return 'ENG';
  if (!(REPORT_LANGS as readonly string[]).includes(lang))
    throw new PortalError(`lang "${text}" is not a report language; use ${REPORT_LANGS.join(' or ')}`);
  return lang as ReportLang;
}

function bodyOf(ctx: PortalContext): Record<string, unknown> {
  const raw = ctx.req.body.toString('utf8').trim();
  if (raw === '') throw new PortalError('the report body is empty; send JSON {reportwindow, repname, lang, spec}');
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new PortalError('the report body is not JSON; send {reportwindow, repname, lang, spec}');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new PortalError('the report body must be a JSON object');
  return v as Record<string, unknown>;
}

/** The report of a body's reportwindow and repname, or a failure naming what is available. */
function findReport(body: Record<string, unknown>): ReportDef {
  const win = typeof body.reportwindow === 'string' ? body.reportwindow : '';
  const name = typeof body.repname === 'string' ? body.repname : '';
  if (win === '') throw new PortalError('missing required member "reportwindow"');
  if (name === '') throw new PortalError('missing required member "repname"');
  const inWindow = REPORTS.filter((r) => r.reportwindow === win);
  if (inWindow.length === 0)
    throw new PortalError(
      `reportwindow "${win}" is unknown; report windows: ${REPORTS.map((r) => r.reportwindow).join(', ')}`,
    );
  const r = inWindow.find((x) => x.repname === name);
  if (!r)
    throw new PortalError(
      `repname "${name}" is not a report of ${win}; reports: ${inWindow.map((x) => x.repname).join(', ')}`,
    );
  return r;
}

/** The specification: every field, sent values checked per type, defaults for the rest. */
function specOf(ctx: PortalContext, r: ReportDef, value: unknown): Record<string, string> {
  if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value)))
    throw new PortalError('spec must be an object of report-specific parameters');
  const sent = (value ?? {}) as Record<string, unknown>;
  const names = r.fields.map((f) => f.name);
  for (const k of Object.keys(sent))
    if (!names.includes(k))
      throw new PortalError(`spec.${k} is not a field of ${r.repname}; fields: ${names.join(', ')}`);
  const out: Record<string, string> = {};
  for (const f of r.fields) {
    const v = sent[f.name];
    const text = v === undefined || v === null ? '' : typeof v === 'object' ? undefined : String(v);
    if (text === undefined) throw new PortalError(`spec.${f.name} must be a string`);
    const val = text === '' ? f.default(ctx.today) : text;
    if (f.type === 2 && !isCalendarDate(val))
      throw new PortalError(`spec.${f.name} must be a date YYYY-MM-DD, got "${val}"`);
    if (f.values && !f.values.includes(val))
      throw new PortalError(`spec.${f.name} must be one of ${f.values.join(', ')}, got "${val}"`);
    out[f.name] = val;
  }
  if (out.sd && out.ed && out.ed < out.sd) throw new PortalError(`spec.ed ${out.ed} is before spec.sd ${out.sd}`);
  return out;
}

/**
 * `action=report` (POST JSON {reportwindow, repname, lang, spec}; usercode required, rule 3). The output is
 * "not shown"; ours: `{success, res, report: {reportwindow, repname, title, lang, spec, columns:[{name, label,
 * type}], rows:[...], totals}}` (README "Reports").
 */
export const report: PortalHandler = {
  kind: 'action',
  name: 'report',
  json: true,
  methods: ['POST'],
  readsBody: true,
  handle(ctx) {
    const rights = reportRights(ctx);
    const body = bodyOf(ctx);
    const r = findReport(body);
    if (!mayRun(rights, r)) throw new PortalError(ACCESS_DENIED);
    const lang = langOf(typeof body.lang === 'string' ? body.lang : undefined);
    const spec = specOf(ctx, r, body.spec);
    const out = r.run(ctx, spec);
    return {
      json: {
        success: true,
        res: true,
        report: {
          reportwindow: r.reportwindow,
          repname: r.repname,
          title: r.title[lang],
          lang,
          spec,
          columns: r.columns.map((c) => ({ name: c.name, label: c.label[lang], type: c.type })),
          rows: out.rows,
          totals: out.totals,
        },
      },
    };
  },
};

/**
 * `action=action&register=getreportfilters&usercode` (rule 4): the report windows the user may run, with their
 * specification fields, types and defaults: `{reports:[{reportwindow, repname, title, fields:[{name, type,
 * label, default}]}]}`; `lang` (ours, ENG default) picks the labels. Without report access: `Access denied`.
 */
export const getreportfilters: PortalHandler = {
  kind: 'sub-action',
  name: 'getreportfilters',
  json: true,
  handle(ctx) {
    const rights = reportRights(ctx);
    const lang = langOf(ctx.params.get('lang'));
    return {
      json: {
        reports: REPORTS.filter((r) => mayRun(rights, r)).map((r) => ({
          reportwindow: r.reportwindow,
          repname: r.repname,
          title: r.title[lang],
          fields: r.fields.map((f) => ({
            name: f.name,
            type: f.type,
            label: f.label[lang],
            default: f.default(ctx.today),
            ...(f.values ? { values: [...f.values] } : {}),
          })),
        })),
      },
    };
  },
};

export const reportHandlers: readonly PortalHandler[] = [report, getreportfilters];
