/**
 * The audit log: who signed in (or failed to), saved, started, cancelled, published, shared or deleted what, and
 * when. It never holds a secret: callers pass ids, names and settings; and as a second wall, a detail whose key
 * names a secret (password, token, secret, cookie, authorization) is written as "[redacted]", and any value that
 * looks like one of the hub's own secrets (a prefix of secret-token.ts {@link SECRET_PREFIXES}) too.
 */
import { escapeRegExp } from '@erpcert/contract';
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { AuditLogTable, Database } from '../store/schema.js';
import { type Actor, actorLabel } from './actor.js';
import { SECRET_PREFIXES } from './secret-token.js';

export type AuditAction =
  | 'sign-in'
  | 'sign-in-failed'
  | 'sign-in-refused'
  | 'sign-out'
  | 'sign-out-everywhere'
  | 'change-password'
  | 'publish'
  | 'save-target'
  | 'update-target'
  | 'delete-target'
  | 'start-run'
  | 'cancel-run'
  | 'rerun'
  | 'register-key'
  | 'add-member'
  | 'change-role'
  | 'remove-member'
  | 'create-token'
  | 'revoke-token'
  | 'share'
  | 'certify'
  | 'submit'
  | 'delete-run'
  | 'relabel-run'
  | 'make-certifying-body'
  | 'create-organisation'
  | 'grant-hub-admin'
  | 'revoke-hub-admin';

export interface AuditEntry {
  readonly id: number;
  readonly at: string;
  readonly actor: string;
  readonly organisationId: number | null;
  readonly action: string;
  readonly subject: string | null;
  readonly detail: Readonly<Record<string, unknown>> | null;
  readonly address: string | null;
}

/** A page of entries: at most `limit` (100), with an id below `before`. */
export interface AuditPage {
  readonly limit?: number;
  readonly before?: number;
}

/** What a hub admin does to an organisation as a whole: in the hub-wide view as well as the organisation's. */
export const HUB_WIDE_ACTIONS: readonly AuditAction[] = ['create-organisation', 'make-certifying-body'];

type AuditQuery = SelectQueryBuilder<Database, 'audit_log', Selectable<AuditLogTable>>;

export type AuditDetail = Readonly<Record<string, string | number | boolean | null | readonly string[]>>;

const SECRET_KEY = /pass|secret|token|cookie|authori[sz]ation|credential/i;
/** A secret the hub handed out, of any kind: made from the prefixes newSecret uses (one source). */
const SECRET_VALUE = new RegExp(
  `(?:${Object.values(SECRET_PREFIXES).map(escapeRegExp).join('|')})[A-Za-z0-9_-]{20,}`,
  'g',
);

function scrub(v: unknown): unknown {
  if (typeof v === 'string') return v.replace(SECRET_VALUE, '[redacted]');
  if (Array.isArray(v)) return v.map(scrub);
  return v;
}

/** The detail as stored: secret-named keys and secret-looking values redacted. */
export function safeDetail(detail: AuditDetail | undefined): string | null {
  if (!detail) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(detail)) out[k] = SECRET_KEY.test(k) ? '[redacted]' : scrub(v);
  return JSON.stringify(out);
}

export class AuditLog {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async record(e: {
    readonly actor: Actor | string;
    readonly organisationId: number | null;
    readonly action: AuditAction;
    readonly subject?: string;
    readonly detail?: AuditDetail;
    readonly address?: string;
  }): Promise<void> {
    const actor = typeof e.actor === 'string' ? e.actor : actorLabel(e.actor);
    await this.db
      .insertInto('audit_log')
      .values({
        at: this.now().toISOString(),
        actor: scrub(actor) as string,
        user_id: typeof e.actor !== 'string' && e.actor.kind === 'user' ? e.actor.userId : null,
        organisation_id: e.organisationId,
        action: e.action,
        subject: e.subject === undefined ? null : (scrub(e.subject) as string),
        detail: safeDetail(e.detail),
        address: e.address ?? null,
      })
      .execute();
  }

  /** The same log written inside `db` (a transaction): its entries commit or roll back with the rest. */
  within(db: Kysely<Database>): AuditLog {
    return new AuditLog(db, this.now);
  }

  /** An organisation's entries, newest first (`before`: paging by id). */
  list(organisationId: number, o: AuditPage = {}): Promise<AuditEntry[]> {
    return this.page(this.db.selectFrom('audit_log').selectAll().where('organisation_id', '=', organisationId), o);
  }

  /**
   * The hub-wide entries, newest first, for hub admins: those of no organisation (a hub admin granted or taken away
   * by the OpenID Connect admin group or `--init-admin`, a sign-in that failed before anyone was known) and what was
   * done to organisations as a whole ({@link HUB_WIDE_ACTIONS}: made, made a certifying body; those stay in the
   * organisation's own log too). No other entry of an organisation is here.
   */
  listHubWide(o: AuditPage = {}): Promise<AuditEntry[]> {
    return this.page(
      this.db
        .selectFrom('audit_log')
        .selectAll()
        .where((eb) => eb.or([eb('organisation_id', 'is', null), eb('action', 'in', [...HUB_WIDE_ACTIONS])])),
      o,
    );
  }

  private async page(q: AuditQuery, o: AuditPage): Promise<AuditEntry[]> {
    if (o.before !== undefined) q = q.where('id', '<', o.before);
    const rows = await q
      .orderBy('id', 'desc')
      .limit(o.limit ?? 100)
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      at: r.at,
      actor: r.actor,
      organisationId: r.organisation_id === null ? null : Number(r.organisation_id),
      action: r.action,
      subject: r.subject,
      detail: r.detail === null ? null : (JSON.parse(r.detail) as Record<string, unknown>),
      address: r.address,
    }));
  }

  /** Every entry as stored (the secrets test reads the raw table). */
  async raw(): Promise<string> {
    const rows = await this.db.selectFrom('audit_log').selectAll().execute();
    return JSON.stringify(rows);
  }
}
