/**
 * Portal mix (portal-action-api.md): lookups (`pastespecial`, at most 50 results, §4 rule 1), list pages (§4
 * rule 8) and PDF `document` generation, with HSESSION reuse (§5): each VU logs in once with Basic
 * (`action=login`), then sends only `Cookie: HSESSION=<id>`. No documented figure: verdict info, but every check
 * must hold. Run: k6 run -e ERPCERT_TARGET=http://host:port load/k6/scenarios/portal-mix.ts
 */
import exec from 'k6/execution';
import { envNumber, readSettings } from '../lib/env.ts';
import {
  answerOf,
  bodyText,
  getBasic,
  getWithSession,
  portalUrl,
  requireTarget,
  sessionCookie,
  type TextResponse,
} from '../lib/erp.ts';
import { checkAll, finishOperation, loadStarts, measure } from '../lib/metrics.ts';
import { rateOptions } from '../lib/options.ts';
import { ratePlan } from '../lib/plan.ts';
import { fullCheckNow, quickProblem } from '../lib/quick-check.ts';
import { summaryHandler } from '../lib/summary.ts';
import { child, dataRecords, parseXml, text, xmlErrors } from '../lib/xml.ts';

const settings = readSettings({ rate: 5, durationSeconds: 10 });
const plan = ratePlan('portal-mix', {
  offeredRate: settings.rate ?? 5,
  durationSeconds: settings.durationSeconds,
  saturation: settings.saturation,
  parallelism: settings.parallelism,
});
const perpage = Math.min(100, Math.max(1, Math.round(envNumber('ERPCERT_PERPAGE', 20))));
// Lookups: register and search text (ANDed case-insensitive prefixes, §4 rules 1-2)
const lookups: readonly (readonly [string, string])[] = [
  ['INVc', 'a'],
  ['INVc', 'sm'],
  ['CUVc', 'a'],
  ['CUVc', 'c00'],
  ['INVc', 's se'],
  ['CUVc', 'li'],
];

export const options = rateOptions(plan, settings, 3);

interface SetupData {
  readonly invoices: readonly string[];
  readonly pages: number;
}

/** One Basic login proves the credentials; one list page gives the invoices to generate documents for. */
export function setup(): SetupData {
  requireTarget(settings);
  const login = getBasic(settings, portalUrl(settings, { action: 'login' }), 'setup');
  if (login.status !== 200 || xmlErrors(parseXml(bodyText(login))).length > 0) {
    exec.test.abort(
      `setup: portal login failed (${answerOf(login)}) at ${settings.portalPath}; check ERPCERT_PORTAL_PATH and the credentials`,
    );
  }
  const res = getBasic(settings, portalUrl(settings, { register: 'IVVc', page: 1, perpage: 50 }), 'setup');
  const doc = parseXml(bodyText(res));
  const invoices = dataRecords(doc, 'IVVc')
    .map((r) => text(r, 'SerNr'))
    .filter((s) => s !== '');
  if (invoices.length === 0) exec.test.abort('setup: the portal lists no IVVc invoices to generate documents for');
  const count = Number(text(child(doc, 'data'), '@count')) || invoices.length;
  loadStarts();
  return { invoices, pages: Math.max(1, Math.min(50, Math.ceil(count / perpage))) };
}

// Per VU: the session of its one Basic login
let session: string | undefined;
let basicOnly = false;

function login(): void {
  const res = getBasic(settings, portalUrl(settings, { action: 'login' }), 'login');
  measure(res);
  session = sessionCookie(res);
  const ok = checkAll({
    'portal: login answered (HTTP 200, no error)': () =>
      res.status === 200 && xmlErrors(parseXml(bodyText(res))).length === 0,
    'portal: login sets HSESSION': () => session !== undefined,
  });
  if (session === undefined) basicOnly = true; // keep measuring with Basic; the check above already failed
  if (!ok) finishOperation(false);
}

/** GET with the session cookie; one new login when the session is refused (401/403). */
function call(query: Record<string, string | number>, op: string): TextResponse {
  if (session === undefined && !basicOnly) login();
  const url = portalUrl(settings, query);
  const send = (): TextResponse =>
    session === undefined ? getBasic(settings, url, op) : getWithSession(settings, url, session, op);
  let res = send();
  if ((res.status === 401 || res.status === 403) && session !== undefined) {
    measure(res);
    login();
    res = send();
  }
  measure(res);
  return res;
}

function lookup(n: number): boolean {
  const [register, id] = lookups[n % lookups.length]!;
  const res = call({ action: 'pastespecial', register, id }, 'lookup');
  const problem = quickProblem(res, false);
  if (problem !== undefined || !fullCheckNow(settings))
    return checkAll({ 'lookup: HTTP 200, no error (cheap check)': () => !problem });
  const doc = parseXml(bodyText(res));
  const found = dataRecords(doc, register);
  return checkAll({
    'lookup: HTTP 200, no error': () => doc !== undefined && xmlErrors(doc).length === 0,
    'lookup: at most 50 results (PORTAL.LOOKUP.CAP50)': () => found.length <= 50,
    'lookup: every result has a Code': () => found.every((r) => text(r, 'Code') !== ''),
  });
}

function listPage(n: number, pages: number): boolean {
  const page = (n % pages) + 1;
  const res = call({ register: 'IVVc', page, perpage }, 'list');
  const problem = quickProblem(res, false);
  if (problem !== undefined || !fullCheckNow(settings))
    return checkAll({ 'list: HTTP 200, no error (cheap check)': () => !problem });
  const doc = parseXml(bodyText(res));
  const data = child(doc, 'data');
  const rows = dataRecords(doc, 'IVVc');
  return checkAll({
    'list: HTTP 200, no error': () => doc !== undefined && xmlErrors(doc).length === 0,
    'list: paged (count, page as asked)': () => text(data, '@count') !== '' && Number(text(data, '@page')) === page,
    'list: at most perpage rows, each with a SerNr': () =>
      rows.length <= perpage && rows.every((r) => text(r, 'SerNr') !== ''),
  });
}

function documentPdf(n: number, invoices: readonly string[]): boolean {
  const id = invoices[n % invoices.length]!;
  const res = call({ action: 'document', register: 'IVVc', id }, 'document');
  const problem = quickProblem(res, false);
  if (problem !== undefined || !fullCheckNow(settings))
    return checkAll({ 'document: HTTP 200, no error (cheap check)': () => !problem });
  const doc = parseXml(bodyText(res));
  const file = child(child(doc, 'data'), 'file');
  return checkAll({
    'document: HTTP 200, no error': () => doc !== undefined && xmlErrors(doc).length === 0,
    'document: a named file': () => text(file, 'name') !== '',
    'document: base64 of a PDF': () => text(file, 'base64').startsWith('JVBER'), // "%PDF" in base64
  });
}

export default function (data: SetupData): void {
  const n = exec.scenario.iterationInTest;
  const slot = n % 10; // 5 lookups, 3 list pages, 2 documents in every 10 arrivals
  const ok = slot < 5 ? lookup(n) : slot < 8 ? listPage(n, data.pages) : documentPdf(n, data.invoices);
  finishOperation(ok);
}

export const handleSummary = summaryHandler(plan, settings);
