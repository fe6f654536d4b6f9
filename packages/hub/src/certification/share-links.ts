/**
 * Read-only share links: one run, for someone without an account, until an expiry (at most
 * {@link MAX_SHARE_DAYS} days) or a revocation. The link's token is random (secret-token.ts, prefix `ehr_`), shown
 * once when the link is made, and stored only as its SHA-256.
 */
import type { Kysely } from 'kysely';
import { newSecret, SHARE_LINK_PREFIX, secretHash } from '../auth/secret-token.js';
import type { Database } from '../store/schema.js';
import { CertificationError } from './certification-store.js';

export const SHARE_PREFIX = SHARE_LINK_PREFIX;
export const MAX_SHARE_DAYS = 90;
export const DEFAULT_SHARE_DAYS = 7;

export interface ShareLink {
  readonly id: number;
  readonly runId: number;
  readonly organisationId: number;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly revokedAt: string | null;
}

/** What a token opens: the link, or why it no longer opens anything. */
export type ShareLookup =
  | { readonly state: 'open'; readonly link: ShareLink }
  | { readonly state: 'expired' | 'revoked'; readonly link: ShareLink }
  | { readonly state: 'unknown' };

export function shareDaysOf(raw: unknown): number {
  if (raw === undefined || raw === null || raw === '') return DEFAULT_SHARE_DAYS;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_SHARE_DAYS)
    throw new CertificationError(400, `days must be a whole number from 1 to ${MAX_SHARE_DAYS}`);
  return n;
}

type Row = {
  readonly id: number;
  readonly run_id: number;
  readonly organisation_id: number;
  readonly created_by: string;
  readonly created_at: string;
  readonly expires_at: string;
  readonly revoked_at: string | null;
};

function toLink(r: Row): ShareLink {
  return {
    id: Number(r.id),
    runId: Number(r.run_id),
    organisationId: Number(r.organisation_id),
    createdBy: r.created_by,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
  };
}

const COLUMNS = ['id', 'run_id', 'organisation_id', 'created_by', 'created_at', 'expires_at', 'revoked_at'] as const;

export class ShareLinks {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Makes a link; `secret` goes into its URL, is shown once, and is never stored. */
  async create(o: {
    readonly runId: number;
    readonly organisationId: number;
    readonly days: number;
    readonly createdBy: string;
  }): Promise<{ link: ShareLink; secret: string }> {
    const secret = newSecret(SHARE_PREFIX);
    const now = this.now();
    const row = await this.db
      .insertInto('share_links')
      .values({
        run_id: o.runId,
        organisation_id: o.organisationId,
        token_hash: secretHash(secret),
        created_by: o.createdBy,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + o.days * 86_400_000).toISOString(),
      })
      .returning([...COLUMNS])
      .executeTakeFirstOrThrow();
    return { link: toLink(row as Row), secret };
  }

  async list(runId: number): Promise<ShareLink[]> {
    const rows = await this.db
      .selectFrom('share_links')
      .select([...COLUMNS])
      .where('run_id', '=', runId)
      .orderBy('id', 'desc')
      .execute();
    return rows.map((r) => toLink(r as Row));
  }

  async get(id: number): Promise<ShareLink | undefined> {
    const r = await this.db
      .selectFrom('share_links')
      .select([...COLUMNS])
      .where('id', '=', id)
      .executeTakeFirst();
    return r && toLink(r as Row);
  }

  async revoke(id: number): Promise<ShareLink | undefined> {
    await this.db
      .updateTable('share_links')
      .set({ revoked_at: this.now().toISOString() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    return this.get(id);
  }

  /** What a link's token opens now. */
  async open(secret: string): Promise<ShareLookup> {
    if (!secret.startsWith(SHARE_PREFIX)) return { state: 'unknown' };
    const r = await this.db
      .selectFrom('share_links')
      .select([...COLUMNS])
      .where('token_hash', '=', secretHash(secret))
      .executeTakeFirst();
    if (!r) return { state: 'unknown' };
    const link = toLink(r as Row);
    if (link.revokedAt !== null) return { state: 'revoked', link };
    if (link.expiresAt <= this.now().toISOString()) return { state: 'expired', link };
    return { state: 'open', link };
  }
}
