/**
 * Saved targets: a target's connection kept in the hub so that it can start runs against it. The password is
 * sealed by {@link SecretBox} (never stored in clear, never answered: the API says only "set"); the other
 * connection settings are the conform flags that make sense for a shared target.
 */
import { parseTargetGuard, TARGET_REFUSED, type TargetGuard } from '@erpcert/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { NO_SECRET_MESSAGE, type SecretBox } from './secret-box.js';

export const AUTH_KINDS = ['basic'] as const;
export type AuthKind = (typeof AUTH_KINDS)[number];

/** What a client sends to save or update a target (a password of undefined keeps the saved one). */
export interface SavedTargetInput {
  readonly url?: string;
  readonly name?: string;
  readonly authKind?: AuthKind;
  readonly user?: string | null;
  readonly password?: string | null;
  readonly compcode?: number | null;
  readonly otherCompcode?: number | null;
  readonly usercode?: string | null;
  readonly unokUsercode?: string | null;
  readonly limitedUsercode?: string | null;
  readonly portalcc?: 'est' | 'lat' | null;
  readonly portalPath?: string | null;
  readonly companyIn?: 'path' | 'query' | null;
}

/** A saved target as the API answers it: never the password. */
export interface SavedTarget {
  readonly id: number;
  /** The organisation it belongs to (issue 26). */
  readonly organisationId: number;
  readonly name: string;
  readonly url: string;
  readonly authKind: AuthKind;
  readonly user: string | null;
  readonly password: 'set' | 'not set';
  readonly compcode: number | null;
  readonly otherCompcode: number | null;
  readonly usercode: string | null;
  readonly unokUsercode: string | null;
  readonly limitedUsercode: string | null;
  readonly portalcc: string | null;
  readonly portalPath: string | null;
  readonly companyIn: string | null;
  readonly savedAt: string;
}

/** What an executor needs to connect: the saved target with its password opened. */
export interface TargetConnection extends Omit<SavedTarget, 'password'> {
  readonly password: string | null;
}

/** A refused input: the API answers it with this status. */
export class TargetInputError extends Error {
  override readonly name = 'TargetInputError';
  constructor(
    message: string,
    readonly status: 400 | 404 | 409 | 422 = 400,
  ) {
    super(message);
  }
}

const context = (id: number) => `target:${id}`;

type TargetRow = Database['targets'] extends infer T ? { [K in keyof T]: unknown } : never;

function shape(r: TargetRow): Omit<SavedTarget, 'password'> {
  return {
    id: Number(r.id),
    organisationId: Number(r.organisation_id),
    name: r.name as string,
    url: r.target_key === EMBEDDED_TARGET ? EMBEDDED_TARGET : (r.url as string),
    authKind: (r.auth_kind as AuthKind | null) ?? 'basic',
    user: (r.username as string | null) ?? null,
    compcode: r.compcode === null ? null : Number(r.compcode),
    otherCompcode: r.other_compcode === null ? null : Number(r.other_compcode),
    usercode: (r.usercode as string | null) ?? null,
    unokUsercode: (r.unok_usercode as string | null) ?? null,
    limitedUsercode: (r.limited_usercode as string | null) ?? null,
    portalcc: (r.portalcc as string | null) ?? null,
    portalPath: (r.portal_path as string | null) ?? null,
    companyIn: (r.company_in as string | null) ?? null,
    savedAt: r.saved_at as string,
  };
}

/**
 * The embedded reference server, by the name the hub gives it (`target_key` of its published runs): a saved target
 * with this url runs `erpcert conform` without --target (the child starts the reference server on its own
 * loopback port), so it is allowed by name, never by address.
 */
export const EMBEDDED_TARGET = 'embedded';

/** The target URL as its key: http(s), no credentials, no query, no trailing slash; or {@link EMBEDDED_TARGET}. */
export function targetUrl(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new TargetInputError('url is required: the target base URL');
  if (raw.trim() === EMBEDDED_TARGET) return EMBEDDED_TARGET;
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new TargetInputError(`url is not a URL: ${JSON.stringify(raw)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new TargetInputError(`url must be http:// or https://, not ${u.protocol}`);
  if (u.username || u.password) throw new TargetInputError('put the credentials in user and password, not in the url');
  if (u.search || u.hash) throw new TargetInputError('url must be a base URL without query or fragment');
  return u.toString().replace(/\/+$/, '');
}

function checkInput(i: SavedTargetInput): void {
  const str = (k: keyof SavedTargetInput, max = 200) => {
    const v = i[k];
    if (
      v !== undefined &&
      v !== null &&
      (typeof v !== 'string' || v.length > max || [...v].some((ch) => ch.charCodeAt(0) < 32))
    )
      throw new TargetInputError(`${k} must be a string of at most ${max} characters without control characters`);
  };
  for (const k of ['name', 'user', 'usercode', 'unokUsercode', 'limitedUsercode', 'portalPath'] as const) str(k);
  // a target always has a name (the URL when none is given): null cannot clear it
  if (i.name === null) throw new TargetInputError('name must be a string (leave it out to name the target by its url)');
  str('password', 1000);
  for (const k of ['compcode', 'otherCompcode'] as const) {
    const v = i[k];
    if (v !== undefined && v !== null && !(Number.isInteger(v) && (v as number) >= 0))
      throw new TargetInputError(`${k} must be a whole number`);
  }
  if (i.authKind !== undefined && !AUTH_KINDS.includes(i.authKind))
    throw new TargetInputError(`authKind must be one of ${AUTH_KINDS.join(', ')}`);
  if (i.portalcc != null && !['est', 'lat'].includes(i.portalcc))
    throw new TargetInputError('portalcc must be est or lat');
  if (i.companyIn != null && !['path', 'query'].includes(i.companyIn))
    throw new TargetInputError('companyIn must be path or query');
  if (i.portalPath != null && !i.portalPath.startsWith('/')) throw new TargetInputError('portalPath must start with /');
}

/**
 * A target with certified runs keeps the name and URL it was certified under (issue 26: a certified run is frozen;
 * its public page, badge and share links name it): a rename or another URL is refused with 409 saying why. Its
 * connection (user, password, company codes) may still change; another URL is another target.
 */
async function refuseIfCertified(
  db: Kysely<Database>,
  targetId: number,
  change: { readonly name?: boolean; readonly url?: boolean },
): Promise<void> {
  if (!change.name && !change.url) return;
  const certified = await db
    .selectFrom('frozen_runs')
    .innerJoin('runs', 'runs.id', 'frozen_runs.run_id')
    .select('runs.id')
    .where('runs.target_id', '=', targetId)
    .orderBy('runs.id')
    .execute();
  if (certified.length === 0) return;
  const what = [change.name ? 'renamed' : '', change.url ? 'moved to another url' : ''].filter(Boolean).join(' or ');
  throw new TargetInputError(
    `target #${targetId} has certified runs (${certified.map((r) => `#${r.id}`).join(', ')}): a certified run is frozen, so its target cannot be ${what}; save a new target for another url`,
    409,
  );
}

export class SavedTargets {
  /**
   * @param guard the SSRF allow-list (`erpcert hub --allow-targets`) a target URL is checked against, after DNS
   *   resolution, on save and before every run. @defaultValue the defaults alone, the system resolver
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox | undefined,
    private readonly now: () => Date = () => new Date(),
    readonly guard: TargetGuard = parseTargetGuard(undefined),
  ) {}

  /**
   * Checks a target URL against the allow-list: every address its host resolves to now. The embedded reference
   * server passes by name. Throws TargetInputError (400) naming the address and the setting that opens it.
   */
  async checkUrl(url: string): Promise<void> {
    if (url === EMBEDDED_TARGET) return;
    const host = new URL(url).hostname;
    try {
      await this.guard.checkUrl(url);
    } catch (err) {
      const e = err as Error & { code?: string };
      if (e.code === TARGET_REFUSED) throw new TargetInputError(`url is refused: ${e.message}`);
      throw new TargetInputError(
        `url's host ${host} could not be resolved from the hub (${e.code ?? e.message}): a target is checked by the addresses it resolves to`,
      );
    }
  }

  private columns(i: SavedTargetInput) {
    const pick = <T>(v: T | undefined) => (v === undefined ? {} : { v });
    return Object.fromEntries(
      (
        [
          ['name', i.name],
          ['auth_kind', i.authKind],
          ['username', i.user],
          ['compcode', i.compcode],
          ['other_compcode', i.otherCompcode],
          ['usercode', i.usercode],
          ['unok_usercode', i.unokUsercode],
          ['limited_usercode', i.limitedUsercode],
          ['portalcc', i.portalcc],
          ['portal_path', i.portalPath],
          ['company_in', i.companyIn],
        ] as const
      ).flatMap(([k, v]) => ('v' in pick(v) ? [[k, v]] : [])),
    );
  }

  /** Saves a new target, or the connection of a target known from published runs (same URL). */
  async save(i: SavedTargetInput, organisationId: number): Promise<SavedTarget> {
    checkInput(i);
    const url = targetUrl(i.url);
    if (i.password != null && !this.box) throw new TargetInputError(NO_SECRET_MESSAGE, 422);
    await this.checkUrl(url);
    const at = this.now().toISOString();
    const id = await this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('targets')
        .select(['id', 'saved_at', 'name'])
        .where('organisation_id', '=', organisationId)
        .where('target_key', '=', url)
        .executeTakeFirst();
      if (existing?.saved_at)
        throw new TargetInputError(`a target with url ${url} is saved already: #${existing.id}`, 409);
      const values = { auth_kind: 'basic' as const, ...this.columns(i), saved_at: at };
      if (existing) {
        // a target known from published runs: saving it names it, unless a run of it is certified
        await refuseIfCertified(trx, Number(existing.id), { name: i.name !== undefined && i.name !== existing.name });
        await trx.updateTable('targets').set(values).where('id', '=', existing.id).execute();
        return Number(existing.id);
      }
      const row = await trx
        .insertInto('targets')
        .values({
          target_key: url,
          url,
          name: i.name ?? (url === EMBEDDED_TARGET ? 'embedded reference server' : url),
          created_at: at,
          organisation_id: organisationId,
          ...values,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    });
    if (i.password != null) await this.setPassword(id, i.password);
    return this.getOrThrow(id);
  }

  /** Updates a saved target's settings; a password of null removes it, undefined keeps it. */
  async update(id: number, i: SavedTargetInput): Promise<SavedTarget> {
    checkInput(i);
    const current = await this.getOrThrow(id);
    if (i.password != null && !this.box) throw new TargetInputError(NO_SECRET_MESSAGE, 422);
    const set: Record<string, unknown> = this.columns(i);
    const url = i.url === undefined ? undefined : targetUrl(i.url);
    await refuseIfCertified(this.db, id, {
      name: i.name !== undefined && i.name !== current.name,
      url: url !== undefined && url !== current.url,
    });
    if (url !== undefined) {
      await this.checkUrl(url);
      const other = await this.db
        .selectFrom('targets')
        .select('id')
        .where('organisation_id', '=', current.organisationId)
        .where('target_key', '=', url)
        .executeTakeFirst();
      if (other && Number(other.id) !== id)
        throw new TargetInputError(`another target has url ${url}: #${other.id}`, 409);
      Object.assign(set, { url, target_key: url });
    }
    if (i.password === null) set.password_enc = null;
    if (Object.keys(set).length > 0) await this.db.updateTable('targets').set(set).where('id', '=', id).execute();
    if (i.password != null) await this.setPassword(id, i.password);
    return this.getOrThrow(id);
  }

  private async setPassword(id: number, password: string): Promise<void> {
    if (!this.box) throw new TargetInputError(NO_SECRET_MESSAGE, 422);
    await this.db
      .updateTable('targets')
      .set({ password_enc: this.box.seal(password, context(id)) })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Forgets a saved target's connection (its password first). The target itself goes too unless runs or jobs
   * refer to it: its history stays, as a target known from runs.
   */
  async remove(id: number): Promise<void> {
    await this.getOrThrow(id);
    await this.db.transaction().execute(async (trx) => {
      const nulls = {
        auth_kind: null,
        username: null,
        password_enc: null,
        compcode: null,
        other_compcode: null,
        usercode: null,
        unok_usercode: null,
        limited_usercode: null,
        portalcc: null,
        portal_path: null,
        company_in: null,
        saved_at: null,
      };
      await trx.updateTable('targets').set(nulls).where('id', '=', id).execute();
      const runs = await trx.selectFrom('runs').select('id').where('target_id', '=', id).limit(1).execute();
      const jobs = await trx.selectFrom('jobs').select('id').where('target_id', '=', id).limit(1).execute();
      if (runs.length === 0 && jobs.length === 0) await trx.deleteFrom('targets').where('id', '=', id).execute();
    });
  }

  async get(id: number): Promise<SavedTarget | undefined> {
    const r = await this.db
      .selectFrom('targets')
      .selectAll()
      .where('id', '=', id)
      .where('saved_at', 'is not', null)
      .executeTakeFirst();
    return r === undefined ? undefined : { ...shape(r as TargetRow), password: r.password_enc ? 'set' : 'not set' };
  }

  async getOrThrow(id: number): Promise<SavedTarget> {
    const t = await this.get(id);
    if (!t) throw new TargetInputError(`there is no saved target ${id}`, 404);
    return t;
  }

  /** The saved targets of `organisations`. */
  async list(organisations: readonly number[]): Promise<SavedTarget[]> {
    if (organisations.length === 0) return [];
    const rows = await this.db
      .selectFrom('targets')
      .selectAll()
      .where('organisation_id', 'in', [...organisations])
      .where('saved_at', 'is not', null)
      .orderBy('name')
      .execute();
    return rows.map((r) => ({ ...shape(r as TargetRow), password: r.password_enc ? 'set' : 'not set' }));
  }

  /** The connection with its password opened: for an executor only, never for an answer or a log. */
  async connection(id: number): Promise<TargetConnection> {
    const r = await this.db
      .selectFrom('targets')
      .selectAll()
      .where('id', '=', id)
      .where('saved_at', 'is not', null)
      .executeTakeFirst();
    if (!r) throw new TargetInputError(`there is no saved target ${id}`, 404);
    let password: string | null = null;
    if (r.password_enc) {
      if (!this.box) throw new TargetInputError(NO_SECRET_MESSAGE, 422);
      password = this.box.open(r.password_enc, context(id));
    }
    return { ...shape(r as TargetRow), password };
  }
}
