/**
 * The organisations page as a hub admin sees it: every organisation (whether it is a certifying body, the hub
 * admin's own role where it has one), a button on each to make it a certifying body or stop it being one, and the
 * form that makes a new organisation with its first admin. Server-rendered forms, no script; each carries the
 * session's CSRF token.
 */
import type { OrganisationEntry } from '../auth/accounts.js';
import type { Membership } from '../auth/actor.js';
import { type Html, href, html } from './html.js';
import { csrfField, page } from './layout.js';

/** What was typed into the new organisation's form (shown again with a refusal). */
export interface NewOrganisationForm {
  readonly slug?: string;
  readonly name?: string;
  readonly certifyingBody?: boolean;
  readonly adminEmail?: string;
}

export interface HubOrganisationsView {
  readonly organisations: readonly OrganisationEntry[];
  readonly memberships: readonly Membership[];
  readonly form?: NewOrganisationForm;
  readonly message?: string;
  /** A new first admin's one-time sign-in link: shown this once. */
  readonly shownOnce?: string;
  readonly error?: string;
}

export function hubOrganisationsPage(v: HubOrganisationsView): Html {
  const roles = new Map(v.memberships.map((m) => [m.organisationId, m.role]));
  const f = v.form ?? {};
  return page(
    { title: 'Organisations', nav: 'organisations' },
    html`${v.error ? html`<p class="alert" role="alert">${v.error}</p>` : ''}${
      v.message
        ? html`<div class="note" role="status"><p>${v.message}</p>${
            v.shownOnce
              ? html`<p>It is shown this once: copy it now.</p><p class="secret" id="shown-once">${v.shownOnce}</p>`
              : ''
          }</div>`
        : ''
    }
<p>You are a hub admin: you make organisations and say which certify others' runs. Each organisation's own admins manage its members and tokens. <a href="/audit">The hub's audit log</a> holds what concerns the hub as a whole.</p>
<table><thead><tr><th scope="col">Organisation</th><th scope="col">Certifying body</th><th scope="col">Your role</th><th scope="col">Manage</th></tr></thead>
<tbody>${v.organisations.map((o) => {
      const role = roles.get(o.id);
      return html`<tr><td>${o.name} <span class="muted">${o.slug}</span></td><td>${o.certifyingBody ? 'yes' : 'no'}
<form class="inline" method="post" action="${href(['organisations', o.id, 'certifying-body'])}">${csrfField()}<input type="hidden" name="certifyingBody" value="${o.certifyingBody ? 'no' : 'yes'}"><button type="submit">${
        o.certifyingBody ? 'Stop certifying' : 'Make a certifying body'
      }<span class="sr"> ${o.slug}</span></button></form></td><td>${role ?? html`<span class="muted">none</span>`}</td><td>${
        role === 'admin'
          ? html`<a href="${href(['organisations', o.id])}">Members and tokens<span class="sr"> of ${o.slug}</span></a>`
          : html`<span class="muted">its admins manage it</span>`
      }</td></tr>`;
    })}</tbody></table>
<h2>Make an organisation</h2>
<form class="stack" method="post" action="/organisations">${csrfField()}
<label>Slug (lower-case letters, digits and dashes) <input name="slug" maxlength="63" value="${f.slug ?? ''}" required></label>
<label>Name <input name="name" maxlength="200" value="${f.name ?? ''}" required></label>
<label>Email of its first admin (empty: you) <input type="email" name="adminEmail" value="${f.adminEmail ?? ''}"></label>
<label><input type="checkbox" name="certifyingBody" value="yes"${f.certifyingBody ? html` checked` : ''}> a certifying body (its certifiers review the runs other organisations submit)</label>
<button type="submit">Make the organisation</button>
</form>`,
  );
}
