/**
 * From an upload's files to the rows of one run: results.json is read and checked against its JSON Schema (the
 * conformance results or the load results, by @erpcert/runs' validators), the files are hashed, the run's digest
 * is taken over its file list, and the per-rule verdicts or per-scenario figures are extracted for the queries.
 */
import { createHash } from 'node:crypto';
import {
  LOAD_RESULTS_SCHEMA,
  type LoadRunDocument,
  type ResultsDocument,
  saturationBest,
  validateLoadResults,
  validateResults,
} from '@erpcert/runs';
import type { LoadFigureTable, RuleVerdictTable, RunTable } from '../store/schema.js';
import { IngestError } from './ingest-error.js';
import type { RunFiles } from './run-files.js';

/** What publishing adds to a run: the build (a commit or version label) and a free label. */
export interface PublishMeta {
  readonly build?: string | null;
  readonly label?: string | null;
  /** A live run's parent (a rerun of run #N). */
  readonly parentRunId?: number | null;
  /** A live run the hub executed: done or cancelled (a published folder: published). */
  readonly status?: 'published' | 'done' | 'cancelled' | 'interrupted';
  /** The organisation the run goes to (issue 26): its signing keys check it, its target holds it. */
  readonly organisationId?: number;
}

/** A run ready to store; `run` lacks the ids and the signature, which the store and the check add. */
export interface PreparedRun {
  readonly digest: string;
  readonly target: { readonly key: string; readonly url: string; readonly name: string };
  readonly run: Omit<
    RunTable,
    | 'id'
    | 'target_id'
    | 'digest'
    | 'signature_status'
    | 'signature_key'
    | 'signature_detail'
    | 'created_at'
    | 'organisation_id'
  >;
  readonly verdicts: readonly Omit<RuleVerdictTable, 'run_id'>[];
  readonly figures: readonly Omit<LoadFigureTable, 'run_id'>[];
  readonly files: readonly { readonly path: string; readonly sha256: string; readonly bytes: Buffer }[];
}

const MAX_META = 200;

function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The digest of a run: sha256 over `sha256  path` lines sorted by path (sha256sum's format). */
export function runDigest(files: readonly { readonly path: string; readonly sha256: string }[]): string {
  const lines = [...files]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((f) => `${f.sha256}  ${f.path}\n`);
  return sha256(lines.join(''));
}

function checkMeta(name: string, value: string | null | undefined): string | null {
  if (value === undefined || value === null || value === '') return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (value.length > MAX_META || /[\u0000-\u001f\u007f]/.test(value))
    throw new IngestError(`the ${name} must be at most ${MAX_META} printable characters`);
  return value;
}

function targetOf(t: { readonly url: string; readonly embedded: boolean }) {
  if (t.embedded) return { key: 'embedded', url: t.url, name: 'embedded reference server' };
  const url = t.url.replace(/\/+$/, '');
  return { key: url, url, name: url };
}

function schemaError(file: string, schema: string, errors: readonly string[]): IngestError {
  return new IngestError(`${file} does not match ${schema}: ${errors.slice(0, 3).join('; ')}`, 422);
}

export function prepareRun(files: RunFiles, meta: PublishMeta = {}): PreparedRun {
  const results = files.get('results.json');
  if (!results)
    throw new IngestError(
      'not a run folder: it holds no results.json at its top (publish the folder erpcert conform or load wrote)',
    );
  let doc: unknown;
  try {
    doc = JSON.parse(results.toString('utf8'));
  } catch (err) {
    throw new IngestError(`results.json is not valid JSON: ${(err as Error).message}`, 422);
  }
  const build = checkMeta('build', meta.build);
  const label = checkMeta('label', meta.label);
  const hashed = [...files].map(([path, bytes]) => ({ path, sha256: sha256(bytes), bytes }));
  const digest = runDigest(hashed);
  const o = (typeof doc === 'object' && doc !== null ? doc : {}) as Record<string, unknown>;
  if (o.kind === 'erpcert-conformance') {
    const check = validateResults(doc);
    if (!check.valid) throw schemaError('results.json', 'results.schema.json', check.errors);
    return withLive(conformance(doc as ResultsDocument, digest, hashed, build, label), meta);
  }
  if (o.schema === LOAD_RESULTS_SCHEMA) {
    const check = validateLoadResults(doc);
    if (!check.valid) throw schemaError('results.json', 'load-results.schema.json', check.errors);
    return withLive(load(doc as LoadRunDocument, digest, hashed, build, label), meta);
  }
  throw new IngestError(
    'not a run folder: results.json is neither an erpcert conformance results document nor a load results document',
    422,
  );
}

/** A live run's parent and status (a published folder keeps null and published). */
function withLive(p: PreparedRun, meta: PublishMeta): PreparedRun {
  if (meta.parentRunId == null && meta.status === undefined) return p;
  return {
    ...p,
    run: { ...p.run, parent_run_id: meta.parentRunId ?? null, status: meta.status ?? p.run.status },
  };
}

function conformance(
  doc: ResultsDocument,
  digest: string,
  files: PreparedRun['files'],
  build: string | null,
  label: string | null,
): PreparedRun {
  const t = doc.totals;
  return {
    digest,
    target: targetOf(doc.run.target),
    run: {
      kind: 'conformance',
      build,
      label,
      profile: doc.run.profile,
      seed: doc.run.seed,
      erpcert_version: doc.tool.version,
      spec_sha256: doc.spec.sha256,
      started_at: doc.run.startedAt,
      finished_at: doc.run.finishedAt,
      parent_run_id: null,
      status: 'published',
      outcome: doc.run.outcome,
      exit_code: doc.run.exitCode,
      only_rules: doc.run.only,
      pass_count: t.PASS,
      fail_count: t.FAIL,
      error_count: t.ERROR,
      warn_count: t.WARN,
      skip_count: t.SKIP,
      known_count: t.KNOWN,
      none_count: t.NONE,
      rule_count: t.rules,
    },
    verdicts: doc.rules.map((r) => ({ rule_id: r.id, area: r.area, verdict: r.verdict, observations: r.observations })),
    figures: [],
    files,
  };
}

function load(
  doc: LoadRunDocument,
  digest: string,
  files: PreparedRun['files'],
  build: string | null,
  label: string | null,
): PreparedRun {
  const verdicts = doc.scenarios.map((s) => s.verdict);
  return {
    digest,
    target: targetOf(doc.run.target),
    run: {
      kind: 'load',
      build,
      label,
      profile: doc.run.engine,
      seed: null,
      erpcert_version: doc.tool.version,
      spec_sha256: null,
      started_at: doc.run.startedAt,
      finished_at: doc.run.finishedAt,
      parent_run_id: null,
      status: 'published',
      outcome: doc.run.outcome,
      exit_code: doc.run.exitCode,
      only_rules: null,
      pass_count: verdicts.filter((v) => v === 'pass').length,
      fail_count: verdicts.filter((v) => v === 'fail').length,
      error_count: 0,
      warn_count: 0,
      skip_count: 0,
      known_count: 0,
      none_count: verdicts.filter((v) => v === 'info').length,
      rule_count: doc.scenarios.length,
    },
    verdicts: [],
    figures: doc.scenarios.map((s) => ({
      scenario: s.scenario,
      throughput: s.achievedRate ?? null,
      p50_ms: s.latencyMs.p50,
      p90_ms: s.latencyMs.p90,
      p95_ms: s.latencyMs.p95 ?? null,
      p99_ms: s.latencyMs.p99,
      read_seconds: s.read?.seconds ?? null,
      documented: s.comparison.documented,
      documented_rate_min: s.documented.ratePerSecond?.min ?? null,
      documented_rate_max: s.documented.ratePerSecond?.max ?? null,
      knee: saturationBest(s) ?? null,
      limiter: s.saturationVerdict?.limitedBy ?? null,
      verdict: s.verdict,
    })),
    files,
  };
}
