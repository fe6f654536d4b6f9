/** The pages of accounts: sign in (password, one-time link), the account, organisations, members and tokens, audit. */

import type { Member } from '../auth/accounts.js';
import type { Membership } from '../auth/actor.js';
import type { ApiToken } from '../auth/api-tokens.js';
import type { AuditEntry } from '../auth/audit-log.js';
import { oidcSignInLink } from '../auth/oidc/oidc-pages.js';
import { MIN_PASSWORD_LENGTH } from '../auth/password.js';
import { type Html, href, html } from './html.js';
import { csrfField, page, when } from './layout.js';

const alert = (error: string | undefined) => (error ? html`<p class="alert" role="alert">${error}</p>` : '');
const ROLE_OPTIONS = ['viewer', 'engineer', 'certifier', 'admin'] as const;

/** The password form; with `oidc`, the link to sign in by OpenID Connect too (returning to `next`). */
export function signInPage(o: { error?: string; email?: string; next?: string; oidc?: boolean }): Html {
  return page(
    { title: 'Sign in', nav: 'sign-in' },
    html`${alert(o.error)}
<form class="stack" method="post" action="/sign-in">
<input type="hidden" name="next" value="${o.next ?? '/'}">
<label>Email <input type="email" name="email" autocomplete="username" value="${o.email ?? ''}" required></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>${o.oidc ? oidcSignInLink(o.next) : ''}`,
  );
}

export function linkPage(o: { token: string; error?: string }): Html {
  return page(
    { title: 'Sign in with a link', nav: 'sign-in' },
    html`${alert(o.error)}
<p>This one-time link signs you in once. Then set a password on your account page.</p>
<form class="stack" method="post" action="/sign-in/link">
<input type="hidden" name="token" value="${o.token}">
<button type="submit">Sign in</button>
</form>`,
  );
}

export function accountPage(o: {
  email: string;
  memberships: readonly Membership[];
  hasPassword: boolean;
  message?: string;
  error?: string;
}): Html {
  return page(
    { title: 'Your account', nav: 'account' },
    html`${alert(o.error)}${o.message ? html`<p class="note" role="status">${o.message}</p>` : ''}
<p>Signed in as <strong>${o.email}</strong>.</p>
<h2>Your organisations</h2>
<ul>${o.memberships.map((m) => html`<li>${m.organisationName} (${m.organisationSlug}): ${m.role}</li>`)}</ul>
<h2>${o.hasPassword ? 'Change your password' : 'Set a password'}</h2>
<form class="stack" method="post" action="/account/password">${csrfField()}
<label>New password (at least ${MIN_PASSWORD_LENGTH} characters) <input type="password" name="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required></label>
<button type="submit">Save the password</button>
</form>
<h2>Sessions</h2>
<form method="post" action="/sign-out-everywhere">${csrfField()}<button type="submit">Sign out everywhere</button></form>`,
  );
}

export function organisationsPage(memberships: readonly Membership[], error?: string): Html {
  return page(
    { title: 'Organisations', nav: 'organisations' },
    html`${alert(error)}<table><thead><tr><th scope="col">Organisation</th><th scope="col">Your role</th><th scope="col">Manage</th></tr></thead>
<tbody>${memberships.map(
      (m) =>
        html`<tr><td>${m.organisationName} <span class="muted">${m.organisationSlug}</span></td><td>${m.role}</td><td>${
          m.role === 'admin'
            ? html`<a href="${href(['organisations', m.organisationId])}">Members and tokens</a> · <a href="${href(['organisations', m.organisationId, 'audit'])}">Audit log</a>`
            : html`<span class="muted">an admin manages it</span>`
        }</td></tr>`,
    )}</tbody></table>`,
  );
}

export interface OrganisationView {
  readonly id: number;
  readonly name: string;
  readonly members: readonly Member[];
  readonly tokens: readonly ApiToken[];
  /** A new token's secret or a new member's link: shown this once. */
  readonly shownOnce?: { readonly what: string; readonly value: string };
  readonly error?: string;
}

export function organisationPage(o: OrganisationView): Html {
  const base = ['organisations', o.id] as const;
  return page(
    { title: o.name, nav: 'organisations', crumbs: [['Organisations', '/organisations']] },
    html`${alert(o.error)}${
      o.shownOnce
        ? html`<div class="note" role="status"><p>${o.shownOnce.what} It is shown this once: copy it now.</p><p class="secret" id="shown-once">${o.shownOnce.value}</p></div>`
        : ''
    }
<p><a href="${href([...base, 'audit'])}">Audit log</a></p>
<h2>Members</h2>
<table><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Change</th></tr></thead>
<tbody>${o.members.map(
      (m) => html`<tr><td>${m.email}${m.disabled ? ' (disabled)' : ''}</td><td>${m.role}</td><td>
<form class="inline" method="post" action="${href([...base, 'members', m.id])}">${csrfField()}<label><span class="sr">Role of ${m.email}</span> <select name="role">${ROLE_OPTIONS.map(
        (r) => html`<option value="${r}"${r === m.role ? html` selected` : ''}>${r}</option>`,
      )}</select></label> <button type="submit">Change the role</button></form>
<form class="inline" method="post" action="${href([...base, 'members', m.id, 'remove'])}">${csrfField()}<button type="submit">Remove<span class="sr"> ${m.email}</span></button></form>
</td></tr>`,
    )}</tbody></table>
<h3>Add a member</h3>
<form class="stack" method="post" action="${href([...base, 'members'])}">${csrfField()}
<label>Email <input type="email" name="email" required></label>
<label>Role <select name="role">${ROLE_OPTIONS.map((r) => html`<option value="${r}">${r}</option>`)}</select></label>
<button type="submit">Add</button>
</form>
<h2>API tokens</h2>
<table><thead><tr><th scope="col">Name</th><th scope="col">Scopes</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">State</th></tr></thead>
<tbody>${o.tokens.map(
      (t) =>
        html`<tr><td>${t.name}</td><td>${t.scopes.join(', ')}</td><td>${when(t.expiresAt)}</td><td>${when(t.lastUsedAt)}</td><td>${
          t.revokedAt
            ? html`revoked ${when(t.revokedAt)}`
            : html`<form class="inline" method="post" action="${href([...base, 'tokens', t.id, 'revoke'])}">${csrfField()}<button type="submit">Revoke<span class="sr"> ${t.name}</span></button></form>`
        }</td></tr>`,
    )}</tbody></table>
<h3>Make a token</h3>
<form class="stack" method="post" action="${href([...base, 'tokens'])}">${csrfField()}
<label>Name <input name="name" maxlength="100" required></label>
<fieldset><legend>Scopes</legend>
<label><input type="checkbox" name="scopes" value="publish" checked> publish (CI sends runs)</label>
<label><input type="checkbox" name="scopes" value="read"> read</label>
<label><input type="checkbox" name="scopes" value="run"> run (start, cancel, rerun live runs)</label>
</fieldset>
<label>Expires in (days) <input type="number" name="days" min="1" max="366" value="90" required></label>
<button type="submit">Make the token</button>
</form>`,
  );
}

/** The entries of an audit log as a table, newest first: when, who, what, on what, the detail, from where. */
function auditTable(entries: readonly AuditEntry[], o: { organisation?: boolean } = {}): Html {
  return html`<table><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">On</th>${
    o.organisation ? html`<th scope="col">Organisation</th>` : ''
  }<th scope="col">Detail</th><th scope="col">From</th></tr></thead>
<tbody>${entries.map(
    (e) =>
      html`<tr><td>${when(e.at)}</td><td>${e.actor}</td><td>${e.action}</td><td>${e.subject ?? ''}</td>${
        o.organisation ? html`<td>${e.organisationId ?? html`<span class="muted">none</span>`}</td>` : ''
      }<td><code>${e.detail ? JSON.stringify(e.detail) : ''}</code></td><td>${e.address ?? ''}</td></tr>`,
  )}</tbody></table>`;
}

export function auditPage(org: { id: number; name: string }, entries: readonly AuditEntry[]): Html {
  return page(
    {
      title: `Audit log of ${org.name}`,
      nav: 'organisations',
      crumbs: [
        ['Organisations', '/organisations'],
        [org.name, href(['organisations', org.id])],
      ],
    },
    auditTable(entries),
  );
}

/** The hub-wide audit log (hub admins): entries of no organisation, and organisations made or made certifying bodies. */
export function hubAuditPage(entries: readonly AuditEntry[]): Html {
  return page(
    { title: 'Audit log of the hub', nav: 'organisations', crumbs: [['Organisations', '/organisations']] },
    html`<p>What concerns the hub as a whole: hub admins granted and taken away, organisations made and made certifying bodies, sign-ins that failed before anyone was known. Each organisation's own log is on its page.</p>
${auditTable(entries, { organisation: true })}`,
  );
}
