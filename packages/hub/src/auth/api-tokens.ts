/**
 * API tokens of an organisation: a name, scopes (publish, read, run), an expiry. The secret is shown once, when it is
 * made, and kept only as its SHA-256; a revoked or expired token opens nothing. `erpcert publish` and `--publish`
 * send one as `Authorization: Bearer` (ERPCERT_HUB_TOKEN on the publishing side).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { AccountError } from './accounts.js';
import { isScope, type Scope, type TokenActor } from './actor.js';
import { API_TOKEN_PREFIX, newSecret, secretHash } from './secret-token.js';

export interface ApiToken {
  readonly id: number;
  readonly organisationId: number;
  readonly name: string;
  readonly scopes: readonly Scope[];
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
}

export const MAX_TOKEN_DAYS = 366;

type Row = { [K in keyof Database['api_tokens']]: unknown };

function toToken(r: Row): ApiToken {
  return {
    id: Number(r.id),
    organisationId: Number(r.organisation_id),
    name: r.name as string,
    scopes: String(r.scopes).split(',').filter(isScope),
    createdAt: r.created_at as string,
    expiresAt: r.expires_at as string,
    lastUsedAt: (r.last_used_at as string | null) ?? null,
    revokedAt: (r.revoked_at as string | null) ?? null,
  };
}

/** Scopes from input: a non-empty list of publish, read, run. */
export function scopesOf(raw: unknown): Scope[] {
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  if (list.length === 0 || !list.every(isScope)) throw new AccountError('scopes must be a list of publish, read, run');
  return [...new Set(list)].sort();
}

export class ApiTokens {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Makes a token; `secret` is shown to the caller once and never again. */
  async create(o: {
    organisationId: number;
    name: string;
    scopes: readonly Scope[];
    days: number;
    createdBy: number | null;
  }): Promise<{ token: ApiToken; secret: string }> {
    if (
      typeof o.name !== 'string' ||
      o.name.trim() === '' ||
      o.name.length > 100 ||
      [...o.name].some((ch) => ch.charCodeAt(0) < 32)
    )
      throw new AccountError('a token needs a name of 1 to 100 characters');
    if (!Number.isInteger(o.days) || o.days < 1 || o.days > MAX_TOKEN_DAYS)
      throw new AccountError(`a token expires in 1 to ${MAX_TOKEN_DAYS} days`);
    const scopes = scopesOf(o.scopes);
    const secret = newSecret(API_TOKEN_PREFIX);
    const now = this.now();
    const row = await this.db
      .insertInto('api_tokens')
      .values({
        organisation_id: o.organisationId,
        name: o.name.trim(),
        scopes: scopes.join(','),
        token_hash: secretHash(secret),
        created_by: o.createdBy,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + o.days * 86_400_000).toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { token: toToken(row as Row), secret };
  }

  async list(organisationId: number): Promise<ApiToken[]> {
    const rows = await this.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('organisation_id', '=', organisationId)
      .orderBy('id')
      .execute();
    return rows.map((r) => toToken(r as Row));
  }

  /** Revokes a token of `organisationId` (another organisation's is not found). */
  async revoke(organisationId: number, id: number): Promise<ApiToken | undefined> {
    await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: this.now().toISOString() })
      .where('id', '=', id)
      .where('organisation_id', '=', organisationId)
      .where('revoked_at', 'is', null)
      .execute();
    const r = await this.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', id)
      .where('organisation_id', '=', organisationId)
      .executeTakeFirst();
    return r && toToken(r as Row);
  }

  /** The actor a bearer secret stands for, or undefined (unknown, revoked, expired). */
  async resolve(secret: string): Promise<TokenActor | undefined> {
    const now = this.now().toISOString();
    const r = await this.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('token_hash', '=', secretHash(secret))
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!r) return undefined;
    await this.db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', r.id).execute();
    const t = toToken(r as Row);
    return { kind: 'token', tokenId: t.id, name: t.name, organisationId: t.organisationId, scopes: t.scopes };
  }
}
