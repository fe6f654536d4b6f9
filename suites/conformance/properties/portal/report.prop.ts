// Reports (issue 5 "A report without usercode answers Access denied"; portal-action-api.md §4 "Report",
// "Report filters", operation rules 3 and 4, §5 usercode, §7 "Access denied").
import type { RawResponse } from '@erpcert/client';
import fc from 'fast-check';
import { describe } from 'vitest';
import {
  assertJsonValid,
  expectRule,
  type RuleContext,
  ruleProperty,
  ruleTest,
  show,
  TARGET_ENV,
  violated,
} from '../../src/harness/index.js';
import { attempt, bodyText, describeOutcome, jsonBody, type Outcome } from '../../src/harness/portal.js';

const ACCESS_DENIED = 'Access denied';

/** The raw body of an outcome, success or failure (the error's message when no body was recorded). */
function bodyOf(o: Outcome<{ raw: RawResponse }>): string {
  return bodyText(o) || (o.ok ? '' : o.error.message);
}

/**
 * A refusal without "Access denied" asked apart before the usercode rules are blamed: the same listed report
 * refused word for word to the configured usercode (a user with report access) is the report action refused to
 * everyone (PORTAL.REPORT.ACTION), not a matter of who asks.
 */
async function judgeRefusedToAll(
  ctx: RuleContext,
  request: Parameters<RuleContext['client']['portal']['report']>[1],
  o: Outcome<{ raw: RawResponse }>,
  listed: boolean,
): Promise<void> {
  const usercode = ctx.target.usercode;
  if (!listed || usercode === undefined || !refused(o) || bodyOf(o).includes(ACCESS_DENIED)) return;
  const mine = await attempt(ctx.client.portal.report({ usercode }, request));
  if (refused(mine) && bodyOf(mine) === bodyOf(o))
    violated(
      'PORTAL.REPORT.ACTION',
      `report ${show(request)} is refused alike to the configured usercode ${usercode} (a user with report access) and to a request without that access: ${show(bodyOf(o), 200)}`,
    );
}

/** A report answer that is not the report: a failure, or JSON whose success is not true. */
function refused(o: Outcome<{ raw: RawResponse }>): boolean {
  if (!o.ok) return true;
  const json = jsonBody(o.value.raw) as { success?: unknown } | undefined;
  return json !== undefined && json !== null && typeof json === 'object' && json.success === false;
}

type Filters = { reports?: { reportwindow?: string; repname?: string }[] };

let filters: Promise<Filters | string> | undefined;

/** The report windows the configured usercode may run (getreportfilters), or why there are none. */
async function reportFilters(ctx: RuleContext): Promise<Filters | string> {
  filters ??= (async () => {
    if (ctx.target.usercode === undefined) return 'no --usercode configured (a user with report access)';
    const o = await attempt(ctx.client.portal.call('action_getreportfilters', { usercode: ctx.target.usercode }));
    if (!o.ok) return `getreportfilters for ${ctx.target.usercode}: ${describeOutcome(o)}`;
    return (o.value.body ?? {}) as Filters;
  })();
  return filters;
}

/** A report request: a window and name the target lists, or made up; a language; an empty spec. */
const reportRequest = fc.record({
  pick: fc.nat(),
  madeUp: fc.boolean(),
  reportwindow: fc.stringMatching(/^[A-Z][A-Za-z]{2,12}$/),
  repname: fc.stringMatching(/^[A-Z][A-Za-z]{2,12}$/),
  lang: fc.option(fc.constantFrom('EST', 'ENG', 'LAT'), { nil: undefined }),
});

type ReportPick = typeof reportRequest extends fc.Arbitrary<infer T> ? T : never;

/** The report request of a pick: a report the target lists (when it lists any and the pick wants one). */
async function requestOf(ctx: RuleContext, r: ReportPick) {
  const f = await reportFilters(ctx);
  const listed = typeof f === 'string' ? [] : (f.reports ?? []).filter((x) => x.reportwindow && x.repname);
  const known = !r.madeUp && listed.length > 0 ? listed[r.pick % listed.length]! : undefined;
  return {
    reportwindow: known?.reportwindow ?? r.reportwindow,
    repname: known?.repname ?? r.repname,
    ...(r.lang !== undefined ? { lang: r.lang } : {}),
    spec: {},
  };
}

describe('reports', () => {
  ruleProperty(
    ['PORTAL.REPORT.USERCODE_REQUIRED', 'PORTAL.ERRORS.ACCESS_DENIED', 'PORTAL.AUTH.USERCODE_ACTING_USER'],
    'action=report without usercode fails with the text Access denied, with valid credentials',
    [reportRequest],
    async (ctx, r) => {
      const request = await requestOf(ctx, r);
      const o = await attempt(ctx.client.portal.report({ usercode: null }, request));
      await judgeRefusedToAll(ctx, request, o, !r.madeUp);
      expectRule(
        refused(o),
        'PORTAL.REPORT.USERCODE_REQUIRED',
        () => `report ${show(request)} without usercode was answered: ${show(bodyOf(o), 200)}`,
      );
      expectRule(
        bodyOf(o).includes(ACCESS_DENIED),
        'PORTAL.ERRORS.ACCESS_DENIED',
        () => `report without usercode failed without the text "${ACCESS_DENIED}": ${show(bodyOf(o), 200)}`,
      );
    },
    { numRuns: 8 },
  );

  ruleProperty(
    ['PORTAL.REPORT.ACCESS_GROUP', 'PORTAL.ERRORS.ACCESS_DENIED', 'PORTAL.AUTH.USERCODE_ACTING_USER'],
    'action=report for a usercode without report access fails with Access denied',
    [reportRequest],
    async (ctx, r) => {
      const limited = process.env[TARGET_ENV.limitedUsercode];
      if (!limited)
        ctx.skip(`no ${TARGET_ENV.limitedUsercode} configured (a usercode whose access group has no report access)`);
      const request = await requestOf(ctx, r);
      const o = await attempt(ctx.client.portal.report({ usercode: limited }, request));
      await judgeRefusedToAll(ctx, request, o, !r.madeUp);
      expectRule(
        refused(o) && bodyOf(o).includes(ACCESS_DENIED),
        'PORTAL.REPORT.ACCESS_GROUP',
        () => `report ${show(request)} for ${limited} (no report access) answered: ${show(bodyOf(o), 200)}`,
      );
    },
    { numRuns: 4 },
  );

  ruleTest(
    [
      'PORTAL.REPORT.GETREPORTFILTERS',
      'PORTAL.REPORT.FILTERS_CONTENT',
      'PORTAL.REPORT.ACTION',
      'PORTAL.DISPATCH.JSON_OPERATIONS',
      'PORTAL.AUTH.USERCODE_ACTING_USER',
    ],
    'getreportfilters lists report windows with their fields (JSON), and a listed report runs for the usercode',
    async (ctx) => {
      const usercode = ctx.target.usercode;
      if (usercode === undefined) ctx.skip('no --usercode configured (a user with report access)');
      const o = await attempt(ctx.client.portal.call('action_getreportfilters', { usercode }));
      expectRule(
        o.ok,
        'PORTAL.REPORT.GETREPORTFILTERS',
        () => `getreportfilters usercode=${usercode}: ${describeOutcome(o)}`,
      );
      const body = jsonBody(o.value.raw);
      expectRule(
        body !== undefined,
        'PORTAL.DISPATCH.JSON_OPERATIONS',
        () => `getreportfilters answered no JSON: ${show(o.value.raw.text, 200)}`,
      );
      assertJsonValid(body, { spec: 'portal-action', schema: 'PortalReportFilters' }, 'PORTAL.REPORT.GETREPORTFILTERS');
      const reports = (body as Filters).reports ?? [];
      if (reports.length === 0) ctx.skip(`getreportfilters lists no report for ${usercode}`);
      ctx.observe('PORTAL.REPORT.FILTERS_CONTENT'); // listed report windows, valid against the schema above
      // the listed reports in turn (a few): one that runs shows the usercode read as the acting user; Access denied
      // for each of them, to the configured usercode (a user with report access) as to a request without one, is a
      // refusal of what the docs accept for that user: the usercode was not taken as the acting user
      const tried: string[] = [];
      let picked: { reportwindow: string; repname: string; run: Outcome<{ raw: RawResponse }> } | undefined;
      for (const { reportwindow, repname } of reports.filter((x) => x.reportwindow && x.repname).slice(0, 4)) {
        const run = await attempt(
          ctx.client.portal.report(
            { usercode },
            { reportwindow: reportwindow!, repname: repname!, lang: 'ENG', spec: {} },
          ),
        );
        if (refused(run) && bodyOf(run).includes(ACCESS_DENIED)) {
          tried.push(`${reportwindow}/${repname}`);
          continue;
        }
        picked = { reportwindow: reportwindow!, repname: repname!, run };
        break;
      }
      expectRule(
        picked !== undefined,
        'PORTAL.AUTH.USERCODE_ACTING_USER',
        () =>
          `report for usercode=${usercode} (configured as a user with report access) answered "${ACCESS_DENIED}" for every report getreportfilters lists for it (${tried.join(', ')}), the answer the docs give a report without usercode: the usercode was not taken as the acting user (if that user lacks access to these reports, configure one that has it)`,
        { decisive: true },
      );
      const { reportwindow, repname, run } = picked;
      expectRule(
        !refused(run),
        'PORTAL.REPORT.ACTION',
        () => `report ${reportwindow}/${repname} for ${usercode} was refused: ${show(bodyOf(run), 200)}`,
      );
      expectRule(
        jsonBody(run.ok ? run.value.raw : ({ text: '' } as RawResponse)) !== undefined,
        'PORTAL.DISPATCH.JSON_OPERATIONS',
        () => `report answered no JSON: ${show(bodyOf(run), 200)}`,
      );
    },
  );
});
