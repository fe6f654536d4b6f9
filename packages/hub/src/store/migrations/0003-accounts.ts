/**
 * Accounts (issue 26): organisations, users (email, scrypt hash, disabled; an OpenID Connect issuer and subject
 * for users that sign in that way), memberships with one role per organisation, sessions (the token stored only as
 * its SHA-256, with expiry and last use), one-time sign-in links (hashed, single use), API tokens (organisation,
 * scopes, expiry, hash, revoked), the audit log (never a secret) and sign-in attempts (slow-down and lock-out).
 *
 * Every target (saved or only published to), run, job and signing key gets an `organisation_id`; the rows already
 * there go to the default organisation (id 1, `default`), created here. A target's key and a run's digest become
 * unique per organisation (two vendors may test the same URL; the same folder published by two organisations is
 * two runs), and a signing key is registered per organisation.
 *
 * On SQLite a unique column constraint cannot be dropped, so targets, runs, jobs and signing_keys are rebuilt by
 * SQLite's documented procedure (foreign keys off, a new table, copy, drop, rename, indexes again, foreign key
 * check), in one transaction. On PostgreSQL the constraints are altered in place (the Migrator's transaction).
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export const DEFAULT_ORGANISATION_ID = 1;

function onPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A table's change on SQLite: text replacements of its CREATE statement (each must match once). */
interface SqliteChange {
  readonly table: string;
  readonly replace: readonly (readonly [string, string])[];
  /** The organisation column's value for the copied rows, or undefined when the column goes (down). */
  readonly organisation?: number;
}

const ORG_REF = '"organisation_id" integer not null references "organisations" ("id")';

const UP_CHANGES: readonly SqliteChange[] = [
  {
    table: 'targets',
    replace: [
      ['"target_key" text not null unique', '"target_key" text not null'],
      ['"saved_at" text)', `"saved_at" text, ${ORG_REF}, unique ("organisation_id", "target_key"))`],
    ],
    organisation: DEFAULT_ORGANISATION_ID,
  },
  {
    table: 'runs',
    replace: [
      ['"digest" text not null unique', '"digest" text not null'],
      [
        '"rule_count" integer not null)',
        `"rule_count" integer not null, ${ORG_REF}, unique ("organisation_id", "digest"))`,
      ],
    ],
    organisation: DEFAULT_ORGANISATION_ID,
  },
  {
    table: 'jobs',
    replace: [['"finished_at" text)', `"finished_at" text, ${ORG_REF})`]],
    organisation: DEFAULT_ORGANISATION_ID,
  },
  {
    table: 'signing_keys',
    replace: [
      ['"fingerprint" text primary key', '"fingerprint" text not null'],
      [
        '"created_at" text not null)',
        `"created_at" text not null, ${ORG_REF}, primary key ("organisation_id", "fingerprint"))`,
      ],
    ],
    organisation: DEFAULT_ORGANISATION_ID,
  },
];

const DOWN_CHANGES: readonly SqliteChange[] = UP_CHANGES.map((c) => ({
  table: c.table,
  replace: c.replace.map(([a, b]) => [b, a] as const),
}));

/** SQLite's procedure for a change `ALTER TABLE` cannot make (https://sqlite.org/lang_altertable.html#otheralter). */
async function rebuildOnSqlite(db: Kysely<unknown>, changes: readonly SqliteChange[]): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin`.execute(db);
    try {
      for (const ch of changes) {
        const master = await sql<{ type: string; name: string; sql: string | null }>`
          select type, name, sql from sqlite_master where tbl_name = ${ch.table}`.execute(db);
        const create = master.rows.find((r) => r.type === 'table')?.sql;
        if (!create) throw new Error(`no table ${ch.table}`);
        const indexes = master.rows.filter((r) => r.type === 'index' && r.sql).map((r) => r.sql as string);
        let text = create.replace(`CREATE TABLE "${ch.table}"`, `CREATE TABLE "${ch.table}_new"`);
        for (const [from, to] of ch.replace) {
          if (text.split(from).length !== 2) throw new Error(`${ch.table}: expected ${from} once in its schema`);
          text = text.replace(from, to);
        }
        const columns = (await sql<{ name: string }>`select name from pragma_table_info(${ch.table})`.execute(db)).rows
          .map((r) => r.name)
          .filter((n) => n !== 'organisation_id');
        const list = sql.join(columns.map((n) => sql.ref(n)));
        await sql.raw(text).execute(db);
        if (ch.organisation === undefined)
          await sql`insert into ${sql.table(`${ch.table}_new`)} (${list}) select ${list} from ${sql.table(ch.table)}`.execute(
            db,
          );
        else
          await sql`insert into ${sql.table(`${ch.table}_new`)} (${list}, organisation_id) select ${list}, ${ch.organisation} from ${sql.table(ch.table)}`.execute(
            db,
          );
        await sql`drop table ${sql.table(ch.table)}`.execute(db);
        await sql`alter table ${sql.table(`${ch.table}_new`)} rename to ${sql.table(ch.table)}`.execute(db);
        for (const index of indexes) await sql.raw(index).execute(db);
      }
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length > 0) throw new Error(`foreign keys broken by the rebuild: ${JSON.stringify(broken.rows)}`);
      await sql`commit`.execute(db);
    } catch (err) {
      await sql`rollback`.execute(db);
      throw err;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = onPostgres(db);
  const id = pg ? 'serial' : 'integer';
  const idColumn = (c: import('kysely').ColumnDefinitionBuilder) =>
    pg ? c.primaryKey() : c.primaryKey().autoIncrement();

  await db.schema
    .createTable('organisations')
    .addColumn('id', id, idColumn)
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into organisations (id, slug, name, created_at) values (${DEFAULT_ORGANISATION_ID}, 'default', 'Default organisation', ${new Date().toISOString()})`.execute(
    db,
  );
  // the serial's sequence must not hand out the id given by hand
  if (pg) await sql`select setval(pg_get_serial_sequence('organisations', 'id'), 1)`.execute(db);

  await db.schema
    .createTable('users')
    .addColumn('id', id, idColumn)
    // lower-cased: one account per address
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text')
    // `scrypt$N$r$p$salt$hash` (base64url); null: no password (OpenID Connect only, or not set yet)
    .addColumn('password_hash', 'text')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    // OpenID Connect (branch i26-oidc): the provider's issuer and the user's subject there
    .addColumn('oidc_issuer', 'text')
    .addColumn('oidc_subject', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_oidc').on('users').columns(['oidc_issuer', 'oidc_subject']).unique().execute();

  await db.schema
    .createTable('memberships')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'certifier', 'engineer', 'viewer')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['user_id', 'organisation_id'])
    .execute();
  await db.schema.createIndex('memberships_organisation').on('memberships').column('organisation_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', id, idColumn)
    // SHA-256 of the cookie's random token: a leaked table opens no session
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    // how it was opened: password, link, oidc
    .addColumn('method', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('sign_in_links')
    .addColumn('id', id, idColumn)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', id, idColumn)
    .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // a comma list of publish, read, run
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_tokens_organisation').on('api_tokens').column('organisation_id').execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', id, idColumn)
    .addColumn('at', 'text', (c) => c.notNull())
    // `user:<id> <email>`, `token:<id> <name>`, `anonymous`: who did it, never a secret
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('organisation_id', 'integer')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('detail', 'text')
    .addColumn('address', 'text')
    .execute();
  await db.schema.createIndex('audit_log_organisation').on('audit_log').columns(['organisation_id', 'id']).execute();

  await db.schema
    .createTable('sign_in_attempts')
    .addColumn('id', id, idColumn)
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('succeeded', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_attempts_email').on('sign_in_attempts').columns(['email', 'at']).execute();
  await db.schema.createIndex('sign_in_attempts_address').on('sign_in_attempts').columns(['address', 'at']).execute();

  if (!pg) {
    await rebuildOnSqlite(db, UP_CHANGES);
  } else {
    for (const table of ['targets', 'runs', 'jobs', 'signing_keys']) {
      await sql`alter table ${sql.table(table)} add column organisation_id integer not null default ${sql.lit(DEFAULT_ORGANISATION_ID)} references organisations (id)`.execute(
        db,
      );
      await sql`alter table ${sql.table(table)} alter column organisation_id drop default`.execute(db);
    }
    await sql`alter table targets drop constraint targets_target_key_key`.execute(db);
    await sql`alter table targets add constraint targets_organisation_key unique (organisation_id, target_key)`.execute(
      db,
    );
    await sql`alter table runs drop constraint runs_digest_key`.execute(db);
    await sql`alter table runs add constraint runs_organisation_digest unique (organisation_id, digest)`.execute(db);
    await sql`alter table signing_keys drop constraint signing_keys_pkey`.execute(db);
    await sql`alter table signing_keys add primary key (organisation_id, fingerprint)`.execute(db);
  }
  for (const table of ['runs', 'jobs'])
    await db.schema.createIndex(`${table}_organisation`).on(table).columns(['organisation_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const pg = onPostgres(db);
  for (const table of ['runs', 'jobs']) await db.schema.dropIndex(`${table}_organisation`).execute();
  if (!pg) await rebuildOnSqlite(db, DOWN_CHANGES);
  else {
    await sql`alter table signing_keys drop constraint signing_keys_pkey`.execute(db);
    await sql`alter table signing_keys add primary key (fingerprint)`.execute(db);
    await sql`alter table runs drop constraint runs_organisation_digest`.execute(db);
    await sql`alter table runs add constraint runs_digest_key unique (digest)`.execute(db);
    await sql`alter table targets drop constraint targets_organisation_key`.execute(db);
    await sql`alter table targets add constraint targets_target_key_key unique (target_key)`.execute(db);
    for (const table of ['targets', 'runs', 'jobs', 'signing_keys'])
      await sql`alter table ${sql.table(table)} drop column organisation_id`.execute(db);
  }
  for (const table of [
    'sign_in_attempts',
    'audit_log',
    'api_tokens',
    'sign_in_links',
    'sessions',
    'memberships',
    'users',
    'organisations',
  ])
    await db.schema.dropTable(table).execute();
}
