/**
 * Issue 28: servers that refuse requests the docs say are accepted, with the documented error shape, and servers
 * that ignore a parameter where a run's data may not reach the case that shows it. Each refusal must FAIL exactly
 * the rule that allows the request (suites/conformance/src/harness/accepted.ts); each ignored parameter must FAIL
 * its rule, or leave it SKIP "no observation reached the case that tells right from wrong" (`undecided`), never a
 * PASS.
 */
import type { Mutant, ProxyRequest, ProxyResponse } from './proxy.js';
import { formOf, portalAction, queryOf, restRegister, withQuery } from './wire.js';

const isPost = (req: ProxyRequest) => req.method === 'POST';
const isForm = (req: ProxyRequest) => /x-www-form-urlencoded/i.test(String(req.headers['content-type'] ?? ''));
const isJsonBody = (req: ProxyRequest) => /json/i.test(String(req.headers['content-type'] ?? ''));
const wantsJson = (req: ProxyRequest) => /json/i.test(String(req.headers.accept ?? ''));

/**
 * A REST refusal as live servers send one (DESIGN.md "What real deployments do"): HTTP 400 with a JSON
 * `{"error": {"@code", "@description"}}`, or an XML `<error code description/>`, as the request asked.
 */
export function restRefusal(req: ProxyRequest, code: string, description: string): ProxyResponse {
  if (wantsJson(req))
    return {
      status: 400,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: Buffer.from(JSON.stringify({ error: { '@code': code, '@description': description } }), 'utf8'),
    };
  return {
    status: 400,
    headers: { 'content-type': 'application/xml; charset=utf-8' },
    body: Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?>\n<error code="${code}" description="${description}" row="-1"/>`,
      'utf8',
    ),
  };
}

/** A portal refusal `<data><res errstr="..."/></data>` (portal-action-api.md §2 "Operation result", §7). */
function portalRefusal(why: string): ProxyResponse {
  return {
    status: 200,
    headers: { 'content-type': 'application/xml; charset=utf-8' },
    body: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<data><res errstr="${why}"/></data>`, 'utf8'),
  };
}

/** The records of a JSON POST body `{data: {<Register>: [...]}}`; undefined when it is no such body. */
function jsonRecords(req: ProxyRequest): Record<string, unknown>[] | undefined {
  try {
    const doc = JSON.parse(req.body.toString('utf8')) as { data?: Record<string, unknown> };
    const register = restRegister(req);
    const list = register !== undefined ? doc.data?.[register] : undefined;
    return Array.isArray(list) ? (list as Record<string, unknown>[]) : undefined;
  } catch {
    return undefined;
  }
}

/** The mutants of issue 28's refusals and ignored parameters. */
export function refusalMutants(): Mutant[] {
  return [
    {
      id: 'json-at-register-refused',
      description:
        'a JSON POST whose records carry @register is refused: HTTP 400 "1011 the body holds no <register> record"',
      breaks: ['REST.WRITE.JSON_AT_REGISTER_OPTIONAL'],
      request: (req) => {
        if (!isPost(req) || !isJsonBody(req)) return req;
        const records = jsonRecords(req);
        if (!records?.some((r) => '@register' in r)) return req;
        return restRefusal(req, '1011', `the body holds no ${restRegister(req)} record`);
      },
    },
    {
      id: 'form-post-rows-refused',
      description: 'a form POST that carries set_row_field.* is refused: HTTP 400 "1058 rows cannot be set here"',
      breaks: ['REST.WRITE.CREATE_FORM'],
      request: (req) => {
        if (!isPost(req) || !restRegister(req) || !isForm(req)) return req;
        const rows = [...formOf(req).keys()].some((k) => k.startsWith('set_row_field.'));
        return rows ? restRefusal(req, '1058', 'rows cannot be set here') : req;
      },
    },
    {
      id: 'copyrecord-refused',
      description: 'copyrecord of an existing IVVc (regname=IVVc, a valid id) answers errstr "Copy is not possible"',
      // the rule that allows the request: "copyrecord serves the register IVVc only" (a refusal of a register the
      // docs list for an operation is blamed on the rule that lists it, issue 18), not the copy's effect
      breaks: ['PORTAL.COPY.REGISTERS'],
      request: (req) =>
        portalAction(req) === 'copyrecord' && queryOf(req).get('regname') === 'IVVc'
          ? portalRefusal('Copy is not possible')
          : req,
    },
    {
      id: 'kanban-maxsize-ignored',
      description: 'the Kanban list ignores maxsize: every column holds all its cards',
      breaks: [],
      // the Kanban response is not shown (§4 rule 14): no column can be counted, so nothing may FAIL; the suite
      // tells a board that maxsize cuts from one it does not, and without such a board the rule may not PASS
      undecided: ['PORTAL.LIST.KANBAN_PARAMS'],
      request: (req) =>
        portalAction(req) === 'list' && queryOf(req).get('register') === 'Kanban' && queryOf(req).has('maxsize')
          ? withQuery(req, (q) => q.delete('maxsize'))
          : req,
    },
    {
      id: 'perpage-ignored-above-20',
      description: 'list queries ignore a perpage above 20 and answer pages of the server default (20)',
      breaks: [],
      // caught where a list holds more than 20 records from the page on (a FAIL); where the run's lists hold
      // fewer, pages of 20 and of perpage look alike and the rule may not PASS on them
      undecided: ['PORTAL.LIST.PERPAGE_1_100'],
      request: (req) => {
        const perpage = Number(queryOf(req).get('perpage'));
        return portalAction(req) === 'list' && Number.isInteger(perpage) && perpage > 20 && perpage <= 100
          ? withQuery(req, (q) => q.delete('perpage'))
          : req;
      },
    },
  ];
}
