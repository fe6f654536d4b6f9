/**
 * The certification routes of the API (under /api/v1): certifying bodies, submissions and decisions, the
 * certified list, a run's deletion and relabelling (refused for a certified run: 409), and share links. Who may
 * call each is its row in access.ts.
 */
import { Hono } from 'hono';
import { ApiError } from '../api/api-error.js';
import { jsonBody } from '../api/json-body.js';
import { organisationsWhere } from '../auth/permissions.js';
import { actorOf } from '../auth/request-auth.js';
import { signatureText } from '../ingest/signature-status.js';
import { type CertifiedRun, noteOf } from './certification-store.js';
import { reviewSignature } from './review-signature.js';
import { badgeUrl, reportUrl, route, sharePath } from './routes-common.js';
import type { CertificationServices } from './services.js';
import { shareDaysOf } from './share-links.js';

export function certifiedView(c: CertifiedRun) {
  return { ...c, reportUrl: reportUrl(c.runId), badgeUrl: badgeUrl(c) };
}

export function certificationApi(s: CertificationServices): Hono {
  const app = new Hono();
  const { certification, shares, changes } = s;

  route(app, s, 'GET', '/certifying-bodies', async (c) => c.json({ bodies: await certification.certifyingBodies() }));

  route(app, s, 'GET', '/certified', async (c) => {
    c.header('Cache-Control', 'public, max-age=60');
    return c.json({ certified: (await certification.certified()).map(certifiedView) });
  });

  route(app, s, 'POST', '/runs/:id/submissions', async (c, g) => {
    const run = g.run;
    if (!run) throw new ApiError(404, 'there is no run');
    const body = await jsonBody(c, '{ "certifier": "<slug or id of a certifying body>" }');
    const certifier = body.certifier;
    if (typeof certifier !== 'string' && typeof certifier !== 'number')
      throw new ApiError(400, 'name the certifying body: { "certifier": "<slug or id>" }');
    const submission = await certification.submit(run, String(certifier), s.label(actorOf(c)));
    await s.audit(c, run.organisationId, 'submit', `run ${run.id}`, {
      submission: submission.id,
      certifier: submission.certifier.slug,
    });
    c.header('Location', `/api/v1/submissions/${submission.id}`);
    return c.json({ submission }, 201);
  });

  route(app, s, 'GET', '/runs/:id/submissions', async (c, g) => {
    const run = g.run;
    if (!run) throw new ApiError(404, 'there is no run');
    return c.json({
      submissions: await certification.submissions({ by: [run.organisationId], runId: run.id }),
      certified: (await certification.certificationOf(run.id)) ?? null,
    });
  });

  route(app, s, 'GET', '/submissions', async (c) => {
    const actor = actorOf(c);
    return c.json({
      submissions: await certification.submissions({
        by: organisationsWhere(actor, 'read'),
        to: organisationsWhere(actor, 'read'),
      }),
    });
  });

  route(app, s, 'GET', '/submissions/:id', async (c, g) => {
    const { submission, run } = g;
    if (!submission || !run) throw new ApiError(404, 'there is no submission');
    // the signature checked now, by erpcert verify's checks, with the submitting organisation's keys
    const check = await reviewSignature(s.store, run);
    return c.json({
      submission,
      run,
      signature: { ...check, text: signatureText(check.status, check.key) },
    });
  });

  route(app, s, 'POST', '/submissions/:id/decision', async (c, g) => {
    const { submission, run } = g;
    if (!submission || !run) throw new ApiError(404, 'there is no submission');
    const body = await jsonBody(c, '{ "decision": "certified" | "rejected", "note": "..." }');
    if (body.decision !== 'certified' && body.decision !== 'rejected')
      throw new ApiError(400, 'decision must be "certified" or "rejected"');
    const note = noteOf(body.note, true) as string;
    const check = await reviewSignature(s.store, run);
    const decided = await certification.decide(submission.id, body.decision, note, s.label(actorOf(c)), check);
    await s.audit(c, submission.certifier.id, 'certify', `run ${run.id}`, {
      submission: submission.id,
      decision: body.decision,
      organisation: submission.organisation.slug,
    });
    await s.audit(c, run.organisationId, 'certify', `run ${run.id}`, {
      submission: submission.id,
      decision: body.decision,
      certifier: submission.certifier.slug,
    });
    return c.json({ submission: decided });
  });

  route(app, s, 'DELETE', '/runs/:id', async (c, g) => {
    const run = g.run;
    if (!run) throw new ApiError(404, 'there is no run');
    await changes.deleteRun(run.id);
    await s.audit(c, run.organisationId, 'delete-run', `run ${run.id}`);
    return c.body(null, 204);
  });

  route(app, s, 'PATCH', '/runs/:id', async (c, g) => {
    const run = g.run;
    if (!run) throw new ApiError(404, 'there is no run');
    const body = await jsonBody(c, '{ "build": "...", "label": "..." }');
    await changes.relabelRun(run.id, { build: body.build as string | null, label: body.label as string | null });
    await s.audit(c, run.organisationId, 'relabel-run', `run ${run.id}`, {
      build: (body.build as string | undefined) ?? null,
      label: (body.label as string | undefined) ?? null,
    });
    return c.json({ run: await s.store.run(run.id) });
  });

  route(app, s, 'POST', '/runs/:id/share-links', async (c, g) => {
    const run = g.run;
    if (!run) throw new ApiError(404, 'there is no run');
    const body = c.req.header('content-type')?.includes('json') ? await jsonBody(c, '{ "days": 7 }') : {};
    const days = shareDaysOf(body.days);
    const { link, secret } = await s.share(c, run, days);
    // the link's token is shown this once: the hub keeps only its SHA-256
    return c.json({ link, url: sharePath(secret) }, 201);
  });

  route(app, s, 'GET', '/runs/:id/share-links', async (c, g) => {
    const run = g.run;
    if (!run) throw new ApiError(404, 'there is no run');
    return c.json({ links: await shares.list(run.id) });
  });

  route(app, s, 'DELETE', '/share-links/:id', async (c, g) => {
    const link = g.link;
    if (!link) throw new ApiError(404, 'there is no share link');
    const revoked = await shares.revoke(link.id);
    await s.audit(c, link.organisationId, 'share', `run ${link.runId}`, { link: link.id, revoked: true });
    return c.json({ link: revoked });
  });

  return app;
}
