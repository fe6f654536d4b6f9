// Portal authentication (issue 5 "Auth"; portal-action-api.md §4 "Authentication is required on each",
// §5 Authentication, §2 "Login result", §9 Versioning).
import { sessionFromSetCookie } from '@erpcert/client';
import fc from 'fast-check';
import { describe } from 'vitest';
import { expectRule, type RuleContext, ruleProperty, ruleTest, show, uniqueCode } from '../../src/harness/index.js';
import {
  assertPortalXml,
  attempt,
  describeOutcome,
  expectSuccess,
  PORTAL_PROBES,
  type PortalProbe,
  sendProbe,
} from '../../src/harness/portal.js';

/** The credentials of a refused request: none, an unknown user, the real user with a wrong password. */
type BadCredentials = 'none' | 'unknown-user' | 'wrong-password';

function credentials(ctx: RuleContext, kind: BadCredentials, salt: string) {
  if (kind === 'none') return 'none' as const;
  if (kind === 'unknown-user') return { user: `erpcert-nobody-${salt}`, password: `pw-${salt}` };
  return { user: ctx.target.user ?? 'erpcert', password: `not-the-password-${salt}` };
}

let wrongPasswordSent = false;

/** A read a session must serve: list queries and lookups (their answers are documented). */
const SESSION_READS = PORTAL_PROBES.filter(
  (p) => (p.operation.startsWith('list_') && p.operation !== 'list_Kanban') || p.operation === 'pastespecial',
);

describe('portal authentication', () => {
  ruleProperty(
    ['PORTAL.AUTH.REQUIRED_ON_EACH', 'PORTAL.AUTH.BASIC'],
    'every operation refuses a request without credentials or with wrong ones: no data comes back',
    [fc.constantFrom(...PORTAL_PROBES), fc.constantFrom<BadCredentials>('none', 'unknown-user', 'wrong-password')],
    async (ctx, probe, kind) => {
      // the real user's wrong password goes out once per run: a target may lock an account after failures
      let k = kind;
      if (k === 'wrong-password') {
        if (wrongPasswordSent) k = 'unknown-user';
        wrongPasswordSent = true;
      }
      const salt = uniqueCode(ctx).toLowerCase();
      const o = await attempt(sendProbe(ctx, probe, { auth: credentials(ctx, k, salt) }));
      expectRule(
        !o.ok,
        'PORTAL.AUTH.REQUIRED_ON_EACH',
        () =>
          `${probe.operation} ${show(probe.params)} with ${k === 'none' ? 'no credentials' : `credentials of ${k}`} was served: ${show(o.ok ? o.value.raw.text : '', 200)}`,
      );
    },
    {
      numRuns: 30,
      // every operation once in every run (a server that forgets the check on one operation is caught each time)
      examples: PORTAL_PROBES.map(
        (p, i) => [p, i % 2 === 0 ? 'none' : 'unknown-user'] as [PortalProbe, BadCredentials],
      ),
    },
  );

  ruleProperty(
    'PORTAL.AUTH.NO_OAUTH',
    'a bearer token alone does not authenticate a portal request',
    [fc.constantFrom(...PORTAL_PROBES), fc.stringMatching(/^[A-Za-z0-9._-]{16,40}$/)],
    async (ctx, probe, token) => {
      const o = await attempt(sendProbe(ctx, probe, { auth: { bearer: token } }));
      expectRule(
        !o.ok,
        'PORTAL.AUTH.NO_OAUTH',
        () =>
          `${probe.operation} with only Authorization: Bearer was served: ${show(o.ok ? o.value.raw.text : '', 200)}`,
      );
    },
    { numRuns: 10 },
  );

  ruleProperty(
    [
      'PORTAL.AUTH.BASIC',
      'PORTAL.AUTH.HSESSION_SET',
      'PORTAL.AUTH.HSESSION_ONLY',
      'PORTAL.LOGIN.ACTION',
      'PORTAL.LOGIN.RESULT_SHAPE',
      'PORTAL.VERSION.LOGIN_REPORTS',
    ],
    'a Basic login sets an HSESSION cookie, and that cookie alone then serves portal requests',
    [fc.array(fc.constantFrom(...SESSION_READS), { minLength: 1, maxLength: 4 })],
    async (ctx, reads) => {
      const user = ctx.target.user;
      if (user === undefined) ctx.skip('no user configured: Basic authentication cannot be tried');
      const basic = { user, password: ctx.target.password ?? '' };
      const attempted = await attempt(ctx.client.portal.login({}, { auth: basic }));
      if (!attempted.ok) {
        // a refused login is two probes in one: the Basic credentials, and the login action. Asked apart before
        // Basic is blamed: a read with the same credentials served shows Basic authenticates, and the refusal is
        // the login action's
        const read = await attempt(sendProbe(ctx, SESSION_READS[0]!, { auth: basic }));
        expectRule(
          !read.ok,
          'PORTAL.LOGIN.ACTION',
          () =>
            `action=login with Basic credentials was refused (${describeOutcome(attempted)}), while ${SESSION_READS[0]!.operation} with the same credentials was served`,
        );
      }
      const login = expectSuccess(attempted, 'PORTAL.AUTH.BASIC', 'action=login with Basic credentials');
      await assertPortalXml(ctx, login.raw.text, 'portal-login', 'PORTAL.LOGIN.RESULT_SHAPE');
      for (const f of ['dateformat', 'dec_separator', 'apiversion', 'version'] as const)
        expectRule(
          login.fields[f] !== undefined && login.fields[f] !== '',
          f === 'apiversion' || f === 'version' ? 'PORTAL.VERSION.LOGIN_REPORTS' : 'PORTAL.LOGIN.RESULT_SHAPE',
          () => `the login result has no ${f}: ${show(login.raw.text, 300)}`,
        );
      for (const s of ['activities', 'invoices', 'attachments', 'hassigning'])
        expectRule(
          login.supported[s] === '0' || login.supported[s] === '1',
          'PORTAL.LOGIN.RESULT_SHAPE',
          () => `login supported/${s} is ${show(login.supported[s])}, not 0 or 1`,
        );
      const cookie = sessionFromSetCookie(
        login.raw.rawHeaders.filter((h) => h.name.toLowerCase() === 'set-cookie').map((h) => h.value),
      );
      expectRule(
        cookie !== undefined && cookie !== '',
        'PORTAL.AUTH.HSESSION_SET',
        () =>
          `the Basic-authenticated login answered no HSESSION cookie (Set-Cookie: ${show(login.raw.header('set-cookie'))})`,
      );
      for (const probe of reads) {
        const o = await attempt(sendProbe(ctx, probe, { auth: { cookie } }));
        expectRule(
          o.ok,
          'PORTAL.AUTH.HSESSION_ONLY',
          () => `${probe.operation} with only Cookie: HSESSION (no Basic) was not served: ${describeOutcome(o)}`,
        );
      }
    },
    // one read with the cookie alone in every run (the gate's one run: a login and that read)
    { numRuns: 5, examples: [[[SESSION_READS[0]!]]] },
  );

  ruleTest(
    ['PORTAL.LOGIN.DEACTIVATE', 'PORTAL.DISPATCH.OPERATION_RESULT'],
    'action=deactivate answers an operation result',
    async (ctx) => {
      const user = ctx.target.user;
      if (user === undefined) ctx.skip('no user configured');
      // a session of its own, so that ending it (what deactivate does is not stated) touches no other test
      // a refused login is the login rules' (judged above): deactivate then goes with Basic credentials
      const login = await attempt(ctx.client.portal.login({}, { auth: { user, password: ctx.target.password ?? '' } }));
      const cookie = login.ok
        ? sessionFromSetCookie(
            login.value.raw.rawHeaders.filter((h) => h.name.toLowerCase() === 'set-cookie').map((h) => h.value),
          )
        : undefined;
      const basic = { user, password: ctx.target.password ?? '' };
      // preconditions first: the session is ended through its cookie only where a read confirmed that the
      // cookie authenticates (the cookie rules judge it); else deactivate goes with Basic credentials
      const cookieWorks = cookie !== undefined && (await attempt(ctx.client.portal.login({}, { auth: { cookie } }))).ok;
      const auth = cookieWorks ? { cookie } : basic;
      const o = await attempt(ctx.client.portal.deactivate({}, { auth }));
      const res = expectSuccess(o, 'PORTAL.LOGIN.DEACTIVATE', 'action=deactivate');
      await assertPortalXml(ctx, res.raw.text, 'portal-result', 'PORTAL.DISPATCH.OPERATION_RESULT');
    },
  );
});
