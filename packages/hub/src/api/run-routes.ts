/**
 * Runs: publish (POST, token), a run with its coverage, area table and rule matrix, one rule's evidence, the
 * run's files.
 */
import { coverageLine, judgedCoverage } from '@erpcert/runs';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AuditLog } from '../auth/audit-log.js';
import { actorOf, clientAddress, organisationFor } from '../auth/request-auth.js';
import { ingestFiles } from '../ingest/ingest.js';
import type { IngestLimits } from '../ingest/limits.js';
import { formatBytes } from '../ingest/limits.js';
import { readParts } from '../ingest/read-parts.js';
import { readZip } from '../ingest/read-zip.js';
import type { RunFiles } from '../ingest/run-files.js';
import type { HubStore } from '../store/hub-store.js';
import { ApiError, intParam } from './api-error.js';
import { RunDocuments } from './run-documents.js';
import { ruleEvidence } from './run-views.js';

const MIB = 1024 * 1024;

export const TYPES: Readonly<Record<string, string>> = {
  json: 'application/json; charset=utf-8',
  jsonl: 'application/jsonl; charset=utf-8',
  html: 'text/html; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  har: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
};

interface Upload {
  readonly files: RunFiles;
  /** Form fields of a multipart upload (build, label). */
  readonly fields: ReadonlyMap<string, string>;
}

async function upload(req: Request, limits: IngestLimits): Promise<Upload> {
  const type = (req.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/zip' || type === 'application/x-zip-compressed' || type === 'application/octet-stream')
    return { files: await readZip(Buffer.from(await req.arrayBuffer()), limits), fields: new Map() };
  if (type === 'multipart/form-data') {
    let form: FormData;
    try {
      form = await req.formData();
    } catch (err) {
      throw new ApiError(400, `the multipart body cannot be read: ${(err as Error).message}`);
    }
    const fields = new Map<string, string>();
    for (const [k, v] of form) if (typeof v === 'string') fields.set(k, v);
    const zip = form.get('zip');
    if (zip instanceof File) return { files: await readZip(Buffer.from(await zip.arrayBuffer()), limits), fields };
    return { files: await readParts(form.getAll('file'), limits), fields };
  }
  throw new ApiError(
    415,
    `send the report folder as application/zip, or as multipart/form-data (a "zip" part, or one "file" part per file named by its path), not ${type || 'no content type'}`,
  );
}

export function runRoutes(store: HubStore, limits: IngestLimits, audit: AuditLog, trustProxy: boolean): Hono {
  const docs = new RunDocuments(store);
  const app = new Hono();

  app.post(
    '/runs',
    async (c, next) => {
      // who may publish, and where, before the body is read
      c.set('targetOrganisation', organisationFor(c, 'publish', c.req.query('organisation')));
      await next();
    },
    bodyLimit({
      maxSize: limits.maxRunBytes + MIB,
      onError: () => {
        throw new ApiError(413, `the upload is larger than the hub accepts (${formatBytes(limits.maxRunBytes)})`);
      },
    }),
    async (c) => {
      const { files, fields } = await upload(c.req.raw, limits);
      const build = c.req.query('build') ?? fields.get('build');
      const label = c.req.query('label') ?? fields.get('label');
      const organisationId = c.get('targetOrganisation') as number;
      const { run, created } = await ingestFiles(store, files, { build, label, organisationId });
      if (created)
        await audit.record({
          actor: actorOf(c),
          organisationId,
          action: 'publish',
          subject: `run ${run.id}`,
          detail: { kind: run.kind, build: run.build, label: run.label, digest: run.digest },
          address: clientAddress(c, trustProxy),
        });
      c.header('Location', `/api/v1/runs/${run.id}`);
      return c.json({ created, run }, created ? 201 : 200);
    },
  );

  app.get('/runs/:id', async (c) => {
    const run = await docs.run(intParam(c.req.param('id'), 'the run id'), c);
    const target = await store.target(run.targetId);
    const files = await store.files(run.id);
    const d = await docs.document(run);
    if (d.kind === 'load') return c.json({ run, target, files, scenarios: d.doc.scenarios, problems: d.doc.problems });
    const doc = d.doc;
    const judged = doc.coverage.judged ?? judgedCoverage(doc.rules);
    return c.json({
      run,
      target,
      files,
      coverage: {
        line: coverageLine(judged),
        judged,
        documented: doc.coverage.documented,
        inferred: doc.coverage.inferred,
      },
      areas: doc.areas,
      rules: doc.rules.map((r) => ({
        id: r.id,
        area: r.area,
        title: r.title,
        standing: r.standing,
        kind: r.kind,
        verdict: r.verdict,
        observations: r.observations,
        reason: r.reason,
        known: r.known,
        doc: r.docAnchor,
      })),
      problems: doc.problems,
    });
  });

  app.get('/runs/:id/rules/:rule', async (c) => {
    const run = await docs.run(intParam(c.req.param('id'), 'the run id'), c);
    const ruleId = c.req.param('rule');
    const d = await docs.document(run);
    if (d.kind === 'load') throw new ApiError(404, `run ${run.id} is a load run: it has scenarios, not rules`);
    return c.json(ruleEvidence(d.doc, run, ruleId));
  });

  app.get('/runs/:id/files', async (c) => {
    const run = await docs.run(intParam(c.req.param('id'), 'the run id'), c);
    return c.json({ run: run.id, files: await store.files(run.id) });
  });

  app.get('/runs/:id/files/:path{.+}', async (c) => {
    const run = await docs.run(intParam(c.req.param('id'), 'the run id'), c);
    const path = c.req.param('path');
    const bytes = await store.readFile(run.id, path);
    if (!bytes) throw new ApiError(404, `run ${run.id} holds no file ${path}`);
    const ext = path.includes('.') ? (path.split('.').pop() ?? '').toLowerCase() : '';
    // a report file is the target's words: shown sandboxed, never run as the hub's page
    c.header('Content-Security-Policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Content-Type', TYPES[ext] ?? 'application/octet-stream');
    return c.body(new Uint8Array(bytes));
  });

  return app;
}
