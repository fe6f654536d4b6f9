/**
 * Hub admins (issue 26): the operators of the whole hub, distinct from an organisation's `admin` role. A hub admin
 * makes organisations and says which are certifying bodies; it gets no role in any organisation by being one.
 * `erpcert hub --init-admin` makes one, and so does OpenID Connect's admin group (`--oidc-admin-group`), which also
 * takes the flag away again at a sign-in without the group. Every user stored before is not one (0).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('hub_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('hub_admin').execute();
}
