/**
 * Saved targets in the browser: the list with a form to save one (`/saved-targets`), and a saved target's page
 * (`/saved-targets/:id`) with its connection, the forms that start a conformance or load run, its live runs, and the
 * forms that edit or delete it. The password is a password input that is never filled in: the page says "set" or
 * "not set". Every form posts to the hub (POST/redirect/GET) and carries the session's CSRF token (page-write.ts).
 */
import type { Membership } from '../auth/actor.js';
import type { Job, RunSettings } from '../live/job-queue.js';
import { ENGINES, type LoadScenarioChoice, MAX_LOAD_SECONDS, PROFILES } from '../live/live-actions.js';
import { AUTH_KINDS, type SavedTarget, type SavedTargetInput } from '../live/saved-targets.js';
import { type Html, href, html } from './html.js';
import { csrfField, page, when } from './layout.js';
import type { PageForm } from './page-write.js';

/** What was typed in a target form, shown again after a refusal (never the password). */
export type TypedFields = Readonly<Record<string, string>>;

interface Field {
  readonly name: keyof SavedTargetInput;
  readonly label: string;
  readonly number?: boolean;
  readonly options?: readonly string[];
}

/** The connection fields, in the order the form shows them (the password apart). */
const FIELDS: readonly Field[] = [
  { name: 'url', label: 'URL (the base URL of the ERP)' },
  { name: 'name', label: 'Name (optional; the URL by default)' },
  { name: 'user', label: 'User' },
  { name: 'compcode', label: 'Company code', number: true },
  { name: 'usercode', label: 'User code' },
  { name: 'otherCompcode', label: 'Other company code (optional)', number: true },
  { name: 'unokUsercode', label: 'User code that may un-confirm (optional)' },
  { name: 'limitedUsercode', label: 'User code with limited rights (optional)' },
  { name: 'portalcc', label: 'Portal company code form (optional)', options: ['', 'est', 'lat'] },
  { name: 'portalPath', label: 'Portal path (optional, starts with /)' },
  { name: 'companyIn', label: 'Company in the REST path or query (optional)', options: ['', 'path', 'query'] },
];

/**
 * A target form's fields as the saved targets' input: the same validator as the API checks them (saved-targets.ts).
 * Saving: an empty field is left out. Editing: an empty field clears the setting, an empty password keeps the saved
 * one, and "forget the password" removes it.
 */
export function targetInput(f: PageForm, editing: boolean): SavedTargetInput {
  const out: Record<string, unknown> = { authKind: f.text('authKind') ?? 'basic' };
  for (const field of FIELDS) {
    const v = f.text(field.name);
    if (field.name === 'url') out.url = v ?? '';
    else if (v === undefined) {
      if (editing && field.name !== 'name') out[field.name] = null;
    } else out[field.name] = field.number && /^\d{1,9}$/.test(v) ? Number(v) : v;
  }
  const password = f.data.get('password');
  if (typeof password === 'string' && password !== '') out.password = password;
  else if (editing && f.text('forgetPassword')) out.password = null;
  return out as SavedTargetInput;
}

/** The typed values of a target form, to show it again (no password). */
export function typedFields(f: PageForm): TypedFields {
  return Object.fromEntries(FIELDS.flatMap((x) => (f.text(x.name) ? [[x.name, f.text(x.name) as string]] : [])));
}

/** A saved target's settings as the form's values. */
function savedFields(t: SavedTarget): TypedFields {
  const out: Record<string, string> = {};
  for (const x of FIELDS) {
    const v = t[x.name as keyof SavedTarget];
    if (v !== null && v !== undefined) out[x.name] = String(v);
  }
  return out;
}

function fieldControl(x: Field, value: string | undefined, idPrefix: string): Html {
  const id = `${idPrefix}-${x.name}`;
  if (x.options)
    return html`<label for="${id}">${x.label}</label><select id="${id}" name="${x.name}">${x.options.map(
      (o) =>
        html`<option value="${o}"${(value ?? '') === o ? html` selected` : ''}>${o === '' ? 'default' : o}</option>`,
    )}</select>`;
  return html`<label for="${id}">${x.label}</label><input id="${id}" name="${x.name}" value="${value ?? ''}"${
    x.number ? html` inputmode="numeric" pattern="[0-9]*"` : ''
  }${x.name === 'url' ? html` type="url" required` : ''} maxlength="${x.name === 'url' ? 2000 : 200}">`;
}

/** The form that saves a target, or edits a saved one. */
function targetForm(o: {
  readonly action: string;
  readonly values: TypedFields;
  readonly password?: SavedTarget['password'];
  readonly button: string;
  readonly idPrefix: string;
  readonly labelledBy: string;
  /** A new target's organisation, chosen when the user may save targets in several. */
  readonly organisations?: readonly Membership[];
}): Html {
  const editing = o.password !== undefined;
  const orgs = o.organisations ?? [];
  return html`<form class="stack" method="post" action="${o.action}" aria-labelledby="${o.labelledBy}">
${
  orgs.length > 1
    ? html`<div class="field"><label for="${o.idPrefix}-organisation">Organisation</label><select id="${o.idPrefix}-organisation" name="organisation">${orgs.map(
        (m) => html`<option value="${m.organisationId}">${m.organisationName}</option>`,
      )}</select></div>`
    : ''
}
${FIELDS.slice(0, 2).map((x) => html`<div class="field">${fieldControl(x, o.values[x.name], o.idPrefix)}</div>`)}
<div class="field"><label for="${o.idPrefix}-authKind">Authentication</label><select id="${o.idPrefix}-authKind" name="authKind">${AUTH_KINDS.map(
    (k) => html`<option value="${k}">${k === 'basic' ? 'HTTP Basic (user and password)' : k}</option>`,
  )}</select></div>
${FIELDS.slice(2, 3).map((x) => html`<div class="field">${fieldControl(x, o.values[x.name], o.idPrefix)}</div>`)}
<div class="field"><label for="${o.idPrefix}-password">Password${editing ? html` (${o.password}; leave empty to keep it)` : ''}</label><input id="${o.idPrefix}-password" type="password" name="password" autocomplete="new-password" maxlength="1000"></div>
${editing ? html`<div class="field"><label><input type="checkbox" name="forgetPassword" value="1"> Forget the saved password</label></div>` : ''}
${FIELDS.slice(3).map((x) => html`<div class="field">${fieldControl(x, o.values[x.name], o.idPrefix)}</div>`)}
${csrfField()}
<button type="submit">${o.button}</button>
</form>`;
}

function alert(error: string | undefined): Html | string {
  return error ? html`<p class="alert" role="alert" id="form-error">${error}</p>` : '';
}

export function savedTargetsPage(
  targets: readonly SavedTarget[],
  o: {
    readonly values?: TypedFields;
    readonly error?: string;
    /** The organisations where the user may save targets. */
    readonly organisations?: readonly Membership[];
  } = {},
): Html {
  const body = html`
<p>A saved target holds a connection (its password encrypted in the hub, never shown again), so that runs can be started against it from its page.</p>
${
  targets.length === 0
    ? html`<p>No target is saved yet.</p>`
    : html`<div class="scroll"><table aria-labelledby="saved-heading">
<caption id="saved-heading">Saved targets</caption>
<thead><tr><th scope="col">Name</th><th scope="col">URL</th><th scope="col">User</th><th scope="col">Password</th><th scope="col">Company</th><th scope="col">User code</th><th scope="col">Saved</th></tr></thead>
<tbody>${targets.map(
        (t) =>
          html`<tr><th scope="row"><a href="${href(['saved-targets', t.id])}">${t.name}</a></th><td>${t.url}</td><td>${t.user ?? '—'}</td><td>${t.password}</td><td>${t.compcode ?? '—'}</td><td>${t.usercode ?? '—'}</td><td>${when(t.savedAt)}</td></tr>`,
      )}</tbody></table></div>`
}
<h2 id="save-heading">Save a target</h2>
${alert(o.error)}
${targetForm({ action: '/saved-targets', values: o.values ?? {}, button: 'Save the target', idPrefix: 'new', labelledBy: 'save-heading', organisations: o.organisations })}`;
  return page({ title: 'Saved targets', nav: 'saved' }, body);
}

/** A live run's settings in a few words. */
export function settingsText(s: RunSettings): string {
  return s.kind === 'conformance'
    ? `conformance · ${s.profile}${s.only.length > 0 ? ` · only ${s.only.join(', ')}` : ''}`
    : `load · ${s.scenario} · ${s.engine} · ${s.durationSeconds} s`;
}

function liveRunsTable(jobs: readonly Job[]): Html {
  if (jobs.length === 0) return html`<p>No live run of this target yet.</p>`;
  return html`<div class="scroll"><table aria-labelledby="live-runs-heading">
<thead><tr><th scope="col">Live run</th><th scope="col">State</th><th scope="col">What</th><th scope="col">Rerun of</th><th scope="col">Stored run</th><th scope="col">Queued</th></tr></thead>
<tbody>${jobs.map(
    (
      j,
    ) => html`<tr><th scope="row"><a href="${href(['live-runs', j.id])}">#${j.id}</a></th><td>${j.state}${j.message ? html` <span class="muted">${j.message}</span>` : ''}</td><td>${settingsText(j.settings)}</td>
<td>${j.parentRunId === null ? '—' : html`<a href="${href(['runs', j.parentRunId])}">#${j.parentRunId}</a>`}</td>
<td>${j.runId === null ? '—' : html`<a href="${href(['runs', j.runId])}">run #${j.runId}</a>`}</td><td>${when(j.createdAt)}</td></tr>`,
  )}</tbody></table></div>`;
}

export interface SavedTargetPageOptions {
  readonly jobs: readonly Job[];
  /** A refused form: which one, its message, and (for the edit form) what was typed. */
  readonly error?: { readonly form: 'conform' | 'load' | 'edit' | 'delete'; readonly message: string };
  readonly values?: TypedFields;
  /** What was typed in the start forms, shown again after a refusal. */
  readonly start?: Readonly<Record<string, string>>;
  /** The load scenarios the hub runs (HubOptions.loadScenarios): a choice; unknown, a name to type. */
  readonly scenarios?: readonly LoadScenarioChoice[] | undefined;
}

/** The load form's scenario: a choice of the scenarios the hub runs, or (a hub not told them) a name to type. */
function scenarioField(known: readonly LoadScenarioChoice[] | undefined, typed: string | undefined): Html {
  if (!known || known.length === 0)
    return html`<label><span>Scenario (a name <code>erpcert load --scenario</code> accepts)</span> <input name="scenario" value="${typed ?? ''}" required pattern="[a-z0-9-]{1,80}" maxlength="80"></label>`;
  const chosen = known.some((k) => k.name === typed) ? typed : known[0]!.name;
  return html`<label>Scenario <select name="scenario" required>${known.map(
    (k) =>
      html`<option value="${k.name}"${k.name === chosen ? html` selected` : ''}>${k.name} — ${k.description}</option>`,
  )}</select></label>`;
}

export function savedTargetPage(t: SavedTarget, o: SavedTargetPageOptions): Html {
  const err = (form: NonNullable<SavedTargetPageOptions['error']>['form']) =>
    o.error?.form === form ? alert(o.error.message) : '';
  const s = o.start ?? {};
  const body = html`
<dl class="facts">
<dt>URL</dt><dd>${t.url}</dd>
<dt>Authentication</dt><dd>${t.authKind} · user ${t.user ?? '—'} · password ${t.password}</dd>
<dt>Company code</dt><dd>${t.compcode ?? '—'}${t.otherCompcode === null ? '' : ` (other: ${t.otherCompcode})`}</dd>
<dt>User code</dt><dd>${t.usercode ?? '—'}</dd>
<dt>Saved</dt><dd>${when(t.savedAt)}</dd>
</dl>
<p><a href="${href(['targets', t.id])}">History of ${t.name}</a> · <a href="${href(['matrix'], { target: t.id })}">Rule matrix</a> · <a href="${href(['targets', t.id, 'trends'])}">Load trends</a></p>
<h2 id="conform-heading">Start a conformance run</h2>
${err('conform')}
<form class="stack" method="post" action="${href(['saved-targets', t.id, 'conform'])}" aria-labelledby="conform-heading">
<label>Profile <select name="profile">${PROFILES.map(
    (p) => html`<option value="${p}"${(s.profile ?? 'gate') === p ? html` selected` : ''}>${p}</option>`,
  )}</select></label>
<label><span>Only these rules (optional: rule ids or globs such as <code>REST.VERSION.*</code>, separated by commas or spaces)</span> <input name="only" value="${s.only ?? ''}" maxlength="4000"></label>
${csrfField()}
<button type="submit">Start conform</button>
</form>
<h2 id="load-heading">Start a load run</h2>
${err('load')}
<form class="stack" method="post" action="${href(['saved-targets', t.id, 'load'])}" aria-labelledby="load-heading">
${scenarioField(o.scenarios, s.scenario)}
<label>Engine <select name="engine">${ENGINES.map(
    (e) => html`<option value="${e}"${(s.engine ?? 'autocannon') === e ? html` selected` : ''}>${e}</option>`,
  )}</select></label>
<label>Duration in seconds (1 to ${MAX_LOAD_SECONDS}) <input name="durationSeconds" type="number" min="1" max="${MAX_LOAD_SECONDS}" value="${s.durationSeconds ?? '30'}" required></label>
${csrfField()}
<button type="submit">Start load</button>
</form>
<h2 id="live-runs-heading">Live runs</h2>
${liveRunsTable(o.jobs)}
<h2 id="edit-heading">Edit the connection</h2>
${err('edit')}
${targetForm({
  action: href(['saved-targets', t.id]),
  values: o.values ?? savedFields(t),
  password: t.password,
  button: 'Save the changes',
  idPrefix: 'edit',
  labelledBy: 'edit-heading',
})}
<h2 id="delete-heading">Delete</h2>
${err('delete')}
<p>Forgets the connection and its password. The target's published and live runs stay in its history.</p>
<form class="stack" method="post" action="${href(['saved-targets', t.id, 'delete'])}" aria-labelledby="delete-heading">
${csrfField()}
<button type="submit">Delete the saved target</button>
</form>`;
  return page({ title: `Saved target ${t.name}`, nav: 'saved', crumbs: [['Saved targets', '/saved-targets']] }, body);
}
