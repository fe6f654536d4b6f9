import { resolve } from 'node:path';
import type { RunningHub } from '@erpcert/hub';
import { DEFAULT_DATABASE, DEFAULT_LIMITS, TOKEN_ENV } from '@erpcert/hub/constants';
import type { Command } from '../command.js';
import { oidcDetails, oidcFlags, oidcOptions } from '../hub/oidc-options.js';
import { UsageError } from '../options.js';
import { listenForStop } from '../stop-signals.js';

/**
 * `erpcert hub`: the team hub (packages/hub) on a SQLite file under ./erpcert-hub/ by default, or on PostgreSQL.
 * Prints its URL on one line once it accepts requests; SIGTERM and SIGINT stop it. `--init-admin EMAIL` makes that
 * user (if new) the admin of an organisation (`--organisation`, made if new) and a hub admin, and prints a one-time sign-in link on
 * the next line, then goes on serving: the link works at once (single use, 15 minutes, stored hashed).
 */
export const hub: Command = {
  name: 'hub',
  summary: 'start the erpcert hub: every published run of a team in one place (HTTP API under /api/v1)',
  flags: [
    { name: 'host', type: 'string', arg: 'HOST', default: '127.0.0.1', help: 'address to listen on' },
    { name: 'port', type: 'int', arg: 'PORT', default: 8480, help: 'port to listen on (0 picks a free one)' },
    {
      name: 'database',
      type: 'string',
      arg: 'URL|FILE',
      default: DEFAULT_DATABASE,
      // a URL may carry a password: never echoed in an error
      secret: true,
      help: 'a SQLite file, :memory: (nothing kept after the hub stops), or postgres://user:password@host/db for a shared PostgreSQL (the same migrations on both)',
    },
    {
      name: 'workers',
      type: 'int',
      arg: 'N',
      help: 'live runs this hub executes at once (default: half the cores, at least 1); 0 executes none (queue only)',
    },
    {
      name: 'allow-targets',
      type: 'string',
      arg: 'CIDR,...',
      help: 'loopback and private addresses (CIDR blocks or single addresses) that saved targets may resolve to; by default only public addresses, and the embedded reference server by name. Link-local (169.254.169.254 among them), multicast and reserved addresses are never allowed',
    },
    {
      name: 'init-admin',
      type: 'string',
      arg: 'EMAIL',
      help: 'make EMAIL the admin of --organisation and a hub admin (makes organisations and certifying bodies), print a one-time sign-in link (15 minutes), then serve',
    },
    {
      name: 'organisation',
      type: 'string',
      arg: 'SLUG',
      default: 'default',
      help: 'the organisation --init-admin administers (made if new; `default` holds the runs from before accounts)',
    },
    {
      name: 'certifying-body',
      type: 'string',
      arg: 'SLUG',
      help: 'make organisation SLUG (made if new) a certifying body: organisations submit signed runs to it and its certifiers certify them. An operator decision: no organisation can make itself one',
    },
    {
      name: 'trust-proxy',
      type: 'boolean',
      help: 'behind a TLS-terminating reverse proxy: trust its X-Forwarded-Proto (Secure cookies) and X-Forwarded-For',
    },
    {
      name: 'max-run-mb',
      type: 'int',
      arg: 'MB',
      default: DEFAULT_LIMITS.maxRunBytes / (1024 * 1024),
      help: 'largest run accepted, its files uncompressed (larger uploads get 413)',
    },
    ...oidcFlags,
  ],
  details: [
    'Accounts: start once with --init-admin you@example.com and open the printed link; the admin adds members',
    '(admin, certifier, engineer, viewer) and makes API tokens on the Organisations page, and as a hub admin makes',
    'organisations and certifying bodies there (or POST /api/v1/organisations). CI publishes with such a',
    `token in ${TOKEN_ENV} (erpcert publish DIR --hub URL, or conform and load with --publish URL).`,
    'Live runs: save a target (the Saved targets page, or POST /api/v1/saved-targets), then start, cancel and',
    'rerun conform or load runs from its pages or the API; they are queued in the database and executed by this',
    "hub's worker pool (the erpcert bin in a child process). A saved target must resolve to public addresses",
    'unless --allow-targets opens loopback or private ones (checked on save, before every run, and at every',
    'connection a conform run makes); the url "embedded" names the embedded reference server, allowed by name.',
    'Saved passwords are encrypted with a key from ERPCERT_HUB_SECRET (without it, none is saved). Several hubs',
    'on one PostgreSQL share the queue. The API is described by specs/hub.openapi.yaml.',
    oidcDetails,
  ].join('\n'),
  async run(values, _positionals, io) {
    const port = values.port as number;
    if (port < 0 || port > 65535) throw new UsageError(`--port must be 0 to 65535, got ${port}`);
    const mb = values['max-run-mb'] as number;
    if (mb < 1) throw new UsageError(`--max-run-mb must be at least 1, got ${mb}`);
    const workers = values.workers as number | undefined;
    if (workers !== undefined && (workers < 0 || workers > 64))
      throw new UsageError(`--workers must be 0 to 64, got ${workers}`);
    const oidc = await oidcOptions(values, io.env, io.cwd);
    const allowTargets = values['allow-targets'] as string | undefined;
    if (allowTargets !== undefined) {
      const { parseTargetGuard } = await import('@erpcert/contract');
      try {
        parseTargetGuard(allowTargets);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    }
    // loaded when run: the store and the server cost every other command's start-up
    const { isPostgresUrl, shownDatabase, startHub, SECRET_ENV, defaultPoolSize } = await import('@erpcert/hub');
    const { liveExecutor } = await import('../hub/live-executor.js');
    const { loadScenarioChoices } = await import('../hub/load-scenarios.js');
    const secret = io.env[SECRET_ENV] || undefined;
    const raw = values.database as string;
    // `:memory:` is SQLite's own name for a database that lives in the process, not a file in the working folder
    const database = isPostgresUrl(raw) || raw === ':memory:' ? raw : resolve(io.cwd, raw);
    const initAdmin = values['init-admin'] as string | undefined;
    const organisation = values.organisation as string;
    if (initAdmin !== undefined && !/^[^\s@]+@[^\s@]+$/.test(initAdmin))
      throw new UsageError(`--init-admin needs an email address, got ${JSON.stringify(initAdmin)}`);
    if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(organisation))
      throw new UsageError('--organisation is a slug: lower-case letters, digits and dashes');
    const certifyingBody = values['certifying-body'] as string | undefined;
    if (certifyingBody !== undefined && !/^[a-z0-9][a-z0-9-]{0,62}$/.test(certifyingBody))
      throw new UsageError('--certifying-body is an organisation slug: lower-case letters, digits and dashes');
    // listen for SIGTERM/SIGINT from the start: a stop during start-up still closes cleanly
    const signals = listenForStop();
    let running: RunningHub;
    try {
      running = await startHub({
        host: values.host as string,
        port,
        database,
        auth: { trustProxy: values['trust-proxy'] === true },
        secret,
        ...(allowTargets !== undefined ? { allowTargets } : {}),
        ...(workers === 0 ? {} : { executor: liveExecutor(), workers: workers ?? defaultPoolSize() }),
        // the start form's choice, also on a hub that leaves the runs to others (they run this erpcert's load)
        loadScenarios: loadScenarioChoices(),
        limits: { ...DEFAULT_LIMITS, maxRunBytes: mb * 1024 * 1024 },
        ...(oidc ? { oidc: { settings: oidc } } : {}),
        log: (line) => io.err.write(`${line}\n`),
      });
    } catch (err) {
      signals.detach();
      io.err.write(`erpcert hub: cannot start: ${(err as Error).message}\n`);
      return 2;
    }
    io.out.write(`${running.url}\n`);
    if (certifyingBody !== undefined) await makeCertifyingBody(running, certifyingBody, io.err);
    if (initAdmin !== undefined) {
      try {
        await initialAdmin(running, initAdmin, organisation, io.out, io.err);
      } catch (err) {
        signals.detach();
        io.err.write(`erpcert hub: --init-admin: ${(err as Error).message}\n`);
        await running.close();
        return 2;
      }
    }
    io.err.write(
      `erpcert hub: listening on ${running.url} (database ${isPostgresUrl(raw) ? shownDatabase(raw) : raw}; ` +
        `API ${running.url}/api/v1; Ctrl-C stops)\n`,
    );
    io.err.write(
      workers === 0
        ? 'erpcert hub: --workers 0: live runs are queued here and executed by other hubs\n'
        : `erpcert hub: executing up to ${running.pool?.size ?? 0} live run(s) at once\n`,
    );
    if (oidc)
      io.err.write(
        `erpcert hub: OpenID Connect sign-in at ${running.url}/auth/oidc (issuer ${oidc.issuer.href}, client ` +
          `${oidc.clientId}); a sign-in makes or updates its user, with the memberships its groups map to\n`,
      );
    if (!secret) io.err.write(`erpcert hub: ${SECRET_ENV} is not set: targets can be saved, their passwords cannot\n`);
    if (io.env[TOKEN_ENV])
      io.err.write(
        `erpcert hub: ${TOKEN_ENV} is not read by the hub any more: make API tokens on the Organisations page\n`,
      );
    const stopSignal = await signals.stopped();
    signals.detach();
    io.err.write(`erpcert hub: ${stopSignal}, stopping\n`);
    await running.close();
    return 0;
  },
};

/** --certifying-body: makes organisation `slug` (made if new) a certifying body, and says so in the audit log. */
export async function makeCertifyingBody(hub: RunningHub, slug: string, err: NodeJS.WritableStream): Promise<void> {
  const { Certification } = await import('@erpcert/hub');
  const { accounts } = hub.auth;
  const org = (await accounts.organisationBySlug(slug)) ?? (await accounts.createOrganisation(slug, slug));
  await new Certification(hub.store.db).setCertifyingBody(org.id, true);
  await hub.auth.audit.record({
    actor: 'erpcert hub --certifying-body',
    organisationId: org.id,
    action: 'make-certifying-body',
    subject: `organisation:${org.id} ${org.slug}`,
    detail: { certifyingBody: true },
  });
  err.write(`erpcert hub: ${org.slug} is a certifying body: its certifiers review the runs submitted to it\n`);
}

/**
 * --init-admin: makes `email` the admin of `slug` (both made if new) and a hub admin (an operator of the whole hub:
 * makes organisations and certifying bodies), and prints a one-time sign-in link to `out`.
 */
export async function initialAdmin(
  hub: RunningHub,
  email: string,
  slug: string,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<void> {
  const { accounts } = hub.auth;
  const org = (await accounts.organisationBySlug(slug)) ?? (await accounts.createOrganisation(slug, slug));
  const user = (await accounts.userByEmail(email)) ?? (await accounts.createUser(email));
  await accounts.setMembership(user.id, org.id, 'admin');
  // and an operator of the whole hub: makes organisations and certifying bodies on /organisations or by the API
  const wasHubAdmin = await accounts.setHubAdmin(user.id, true);
  const secret = await accounts.createSignInLink(user.id);
  await hub.auth.audit.record({
    actor: 'erpcert hub --init-admin',
    organisationId: org.id,
    action: 'add-member',
    subject: `user:${user.id} ${user.email}`,
    detail: { role: 'admin' },
  });
  if (!wasHubAdmin)
    await hub.auth.audit.record({
      actor: 'erpcert hub --init-admin',
      organisationId: null,
      action: 'grant-hub-admin',
      subject: `user:${user.id} ${user.email}`,
      detail: { hubAdmin: true },
    });
  // the link is a secret: printed once, on the operator's terminal, never logged
  out.write(`${hub.url}/sign-in/link?token=${encodeURIComponent(secret)}\n`);
  err.write(
    `erpcert hub: ${user.email} is admin of ${org.slug} and a hub admin (makes organisations on /organisations): ` +
      'open the link above within 15 minutes (once) and set a password\n',
  );
}
