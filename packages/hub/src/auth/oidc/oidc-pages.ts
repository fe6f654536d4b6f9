/**
 * The pages of OpenID Connect sign-in: the link that starts it, a refusal that says what went wrong and what to do
 * (never a stack, never a secret), and a page that shows a verified identity (for an `onSignedIn` that keeps no account).
 * Every value from the provider goes through the pages' one escaping helper.
 */
import { type Html, html } from '../../pages/html.js';
import { page } from '../../pages/layout.js';
import type { OidcIdentity } from './oidc-identity.js';
import { START_PATH } from './oidc-settings.js';

/** The link that starts a sign-in (a plain link: a form's redirect to the provider would meet `form-action 'self'`). */
export function oidcSignInLink(returnTo?: string): Html {
  const to = returnTo && returnTo !== '/' ? `${START_PATH}?${new URLSearchParams({ return: returnTo })}` : START_PATH;
  return html`<p><a class="sign-in" href="${to}">Sign in with OpenID Connect</a></p>`;
}

export function signInPage(issuer: URL, returnTo?: string): Html {
  return page(
    { title: 'Sign in' },
    html`${oidcSignInLink(returnTo)}<p class="muted">You sign in at your organisation's identity provider (${issuer.host}); it tells the hub which groups you are in, and the groups give your roles.</p>`,
  );
}

export function refusedPage(title: string, message: string, next: 'again' | 'none' = 'again'): Html {
  return page(
    { title },
    html`<p class="alert" role="alert">${message}</p>${next === 'again' ? oidcSignInLink() : ''}<p><a href="/">Back to the hub</a></p>`,
  );
}

/**
 * The signed-in identity as a page: what the provider vouched for and the memberships the groups give. `returnTo`
 * is a path of the hub already (the routes' localPath), linked as it is.
 */
export function identityPage(identity: OidcIdentity, returnTo: string): Html {
  const memberships = identity.memberships.map((m) => html`<li>${m.organisation}: ${m.role}</li>`);
  return page(
    { title: 'Signed in' },
    html`<dl class="facts">
<dt>Name</dt><dd>${identity.name ?? '—'}</dd>
<dt>Email</dt><dd>${identity.email ?? '—'}</dd>
<dt>Subject</dt><dd>${identity.subject}</dd>
<dt>Issuer</dt><dd>${identity.issuer}</dd>
<dt>Hub admin</dt><dd>${identity.admin ? 'yes' : 'no'}</dd>
</dl>
<h2>Memberships</h2>
${memberships.length ? html`<ul class="memberships">${memberships}</ul>` : html`<p class="muted">none</p>`}
<p><a href="${returnTo}">Continue</a></p>`,
  );
}
