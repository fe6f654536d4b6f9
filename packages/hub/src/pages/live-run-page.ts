/**
 * A live run's page (`/live-runs/:id`): what it runs and against which saved target, the run it reruns (a link),
 * the live section (live-run.ts: followed by server-sent events) with the form that cancels it while it has not
 * ended, and once stored, the comparison with its parent.
 */
import type { SavedTarget } from '../live/saved-targets.js';
import { type Html, href, html } from './html.js';
import { page, when } from './layout.js';
import { type LiveRunView, liveRunSection } from './live-run.js';
import { settingsText } from './saved-target-pages.js';

export function liveRunPage(
  job: LiveRunView,
  target: Pick<SavedTarget, 'id' | 'name'> | undefined,
  o: { readonly error?: string } = {},
): Html {
  const body = html`
${o.error ? html`<p class="alert" role="alert" id="form-error">${o.error}</p>` : ''}
<dl class="facts">
<dt>Target</dt><dd>${target ? html`<a href="${href(['saved-targets', target.id])}">${target.name}</a>` : html`<a href="${href(['targets', job.targetId])}">#${job.targetId}</a> (no longer saved)`}</dd>
<dt>What</dt><dd>${settingsText(job.settings)}</dd>
${job.parentRunId === null ? '' : html`<dt>Rerun of</dt><dd><a href="${href(['runs', job.parentRunId])}">run #${job.parentRunId}</a></dd>`}
<dt>Queued</dt><dd>${when(job.createdAt)}</dd>
<dt>Started</dt><dd>${when(job.startedAt)}</dd>
<dt>Ended</dt><dd>${when(job.finishedAt)}</dd>
${
  job.runId !== null && job.parentRunId !== null
    ? html`<dt>Compare</dt><dd><a href="${href(['compare'], { a: job.parentRunId, b: job.runId })}">run #${job.parentRunId} → run #${job.runId}</a></dd>`
    : ''
}
</dl>
${liveRunSection(job, { refreshHref: href(['live-runs', job.id]), cancel: true })}`;
  return page(
    {
      title: `Live run #${job.id}`,
      nav: 'saved',
      crumbs: [
        ['Saved targets', '/saved-targets'],
        ...(target ? [[target.name, href(['saved-targets', target.id])] as const] : []),
      ],
    },
    body,
  );
}
