/**
 * OpenID Connect meets accounts: the `onSignedIn` of the OIDC routes (auth/oidc/oidc-routes.ts) when the hub has
 * accounts. A verified identity makes or updates its user and exactly its memberships
 * ({@link Accounts.upsertVerifiedIdentity}), opens a session (method `oidc`), writes the sign-in to the audit log and
 * goes back to the local path the sign-in started from. When an admin group is configured the provider decides the
 * hub admin flag: the group gives it, a sign-in without the group takes it away; both changes go to the audit log
 * (a hub-wide entry: no organisation). An identity without an email the provider verified (the
 * email finds an existing account: an unverified one could take it over), or of a disabled user, is refused with a
 * page that says so, and no session is opened.
 */
import type { Role } from './actor.js';
import type { HubAuth } from './hub-auth.js';
import type { OnSignedIn } from './oidc/oidc-identity.js';
import { refusedPage } from './oidc/oidc-pages.js';
import { clientAddress } from './request-auth.js';
import { recordForUser, startSession } from './sign-in.js';

export function oidcSignIn(auth: HubAuth): OnSignedIn {
  return async (c, identity, { returnTo }) => {
    const address = clientAddress(c, auth.trustProxy);
    if (identity.email === undefined || !identity.emailVerified) {
      await auth.audit.record({
        actor: 'anonymous',
        organisationId: null,
        action: 'sign-in-failed',
        subject: identity.email === undefined ? 'oidc: no email' : 'oidc: email not verified',
        address,
      });
      const why =
        identity.email === undefined
          ? 'The identity provider sent no email address for this account.'
          : 'The identity provider has not verified the email address of this account (email_verified).';
      return c.html(refusedPage('Sign-in refused', why, 'none').text, 403);
    }
    const memberships: Record<string, Role> = {};
    for (const m of identity.memberships) memberships[m.organisation] = m.role;
    const { userId, hubAdminChanged } = await auth.accounts.upsertVerifiedIdentity({
      issuer: identity.issuer,
      subject: identity.subject,
      email: identity.email,
      ...(identity.name ? { name: identity.name } : {}),
      memberships,
      ...(identity.adminGroupSet ? { hubAdmin: identity.admin } : {}),
    });
    if (hubAdminChanged)
      await auth.audit.record({
        actor: `oidc ${identity.issuer}`,
        organisationId: null,
        action: hubAdminChanged.to ? 'grant-hub-admin' : 'revoke-hub-admin',
        subject: `user:${userId} ${identity.email}`,
        detail: { hubAdmin: hubAdminChanged.to, by: 'the OpenID Connect admin group' },
        address,
      });
    const user = await auth.accounts.user(userId);
    if (!user || user.disabled) {
      await recordForUser(auth, userId, {
        actor: `anonymous (as ${identity.email})`,
        action: 'sign-in-refused',
        subject: 'oidc: disabled',
        address,
      });
      return c.html(refusedPage('Sign-in refused', 'This account is disabled: ask an admin.', 'none').text, 403);
    }
    await startSession(auth, c, userId, 'oidc');
    await recordForUser(auth, userId, {
      actor: `user:${userId} ${user.email}`,
      action: 'sign-in',
      subject: 'oidc',
      address,
    });
    return c.redirect(returnTo, 303);
  };
}
