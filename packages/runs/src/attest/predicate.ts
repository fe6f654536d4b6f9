/**
 * erpcert's certification predicate: what a signed report folder states about the run behind it. Its layout is
 * `specs/attestation/certification-predicate.v1.schema.json`; a change that a v1 reader would misread gets a new
 * {@link CERTIFICATION_PREDICATE_TYPE}.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isContractFile, type Rule } from '@erpcert/contract';
import type { LoadRunDocument } from '../load/load-results.js';
import type { ResultsDocument } from '../reports/results.js';

/** The predicate type URI (in-toto Statement v1 `predicateType`); `.invalid` as in results.schema.json's `$id`. */
export const CERTIFICATION_PREDICATE_TYPE = 'https://erpcert.invalid/attestation/certification/v1';

/** One file of specs/ and its SHA-256. */
export interface SpecFileDigest {
  readonly path: string;
  readonly sha256: string;
}

/** Documented observable rules of the catalogue that the run judged (PASS, FAIL or KNOWN), of how many. */
export interface CoverageFigure {
  readonly judged: number;
  readonly of: number;
}

/** A load run's figures and verdicts, and the digest of the results.json they come from. */
export interface LoadAttestation {
  readonly resultsSha256: string;
  readonly erpcertVersion: string;
  readonly targetUrl: string;
  readonly engine: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly outcome: 'pass' | 'fail' | 'error';
  readonly scenarios: readonly {
    readonly scenario: string;
    readonly verdict: string;
    readonly documented: string;
    readonly measured: string;
    readonly ratio: number | null;
  }[];
}

/** The predicate of a certification statement. */
export interface CertificationPredicate {
  readonly target: { readonly url: string; readonly embedded: boolean };
  readonly erpcert: { readonly version: string };
  readonly spec: {
    /** specs/ as results.json's spec.sha256 (spec-info.ts: paths and bytes of every file). */
    readonly sha256: string;
    readonly versions: { readonly rest: string; readonly portal: string };
    readonly files: readonly SpecFileDigest[];
    readonly ruleCatalogue: SpecFileDigest;
  };
  readonly run: {
    readonly profile: string;
    readonly seed: number | null;
    readonly runs: number | null;
    readonly only: string | null;
    readonly shard: string | null;
    readonly startedAt: string;
    readonly finishedAt: string;
    readonly runTag: string;
    readonly outcome: 'pass' | 'fail' | 'error';
    readonly interrupted: boolean;
  };
  readonly totals: Readonly<Record<string, number>>;
  readonly coverage: CoverageFigure;
  readonly rules: readonly {
    readonly id: string;
    readonly verdict: string;
    readonly standing: string;
    readonly observable: boolean;
    /** A FAIL that follows from other FAILed rules (results.json `causedBy`); present on followers only. */
    readonly causedBy?: readonly string[];
  }[];
  readonly load: LoadAttestation | null;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(join(dir, d.name)) : d.isFile() ? [join(dir, d.name)] : [],
  );
}

/** The SHA-256 of every file of `dir` that is part of the contract (paths relative, `/`-separated, sorted). */
export function specFileDigests(dir: string): SpecFileDigest[] {
  return filesUnder(dir)
    .map((abs) => ({ abs, path: relative(dir, abs).split('\\').join('/') }))
    .filter((f) => isContractFile(f.path))
    .map((f) => ({ path: f.path, sha256: createHash('sha256').update(readFileSync(f.abs)).digest('hex') }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Verdicts that judge a rule: it was observed to hold or to break. */
const JUDGED = new Set(['PASS', 'FAIL', 'KNOWN']);

/**
 * The coverage figure of a run: of the catalogue's documented rules that a black-box client can observe, how many
 * results.json judges PASS, FAIL or KNOWN. A run limited by `--only` or `--shard` covers fewer: that is the point.
 * (results.json's `coverage` counts rules with tests, not rules judged, hence this function.)
 */
export function documentedCoverage(doc: Pick<ResultsDocument, 'rules'>, catalogue: readonly Rule[]): CoverageFigure {
  const documented = catalogue.filter((r) => r.standing === 'documented' && r.observable).map((r) => r.id);
  const verdicts = new Map(doc.rules.map((r) => [r.id, r.verdict as string]));
  return {
    judged: documented.filter((id) => JUDGED.has(verdicts.get(id) ?? 'NONE')).length,
    of: documented.length,
  };
}

/** A load run folder's results.json summarized for the predicate (`--load-report DIR`). */
export function loadAttestation(doc: LoadRunDocument, resultsBytes: Uint8Array): LoadAttestation {
  return {
    resultsSha256: createHash('sha256').update(resultsBytes).digest('hex'),
    erpcertVersion: doc.tool.version,
    targetUrl: doc.run.target.url,
    engine: doc.run.engine,
    startedAt: doc.run.startedAt,
    finishedAt: doc.run.finishedAt,
    outcome: doc.run.outcome,
    scenarios: doc.scenarios.map((s) => ({
      scenario: s.scenario,
      verdict: s.saturationVerdict?.verdict ?? s.verdict,
      documented: s.comparison.documented,
      measured: s.comparison.measured,
      ratio: s.comparison.ratio,
    })),
  };
}

/** What {@link certificationPredicate} builds from besides results.json. */
export interface PredicateInputs {
  /** Every file of specs/ with its digest (specFileDigests). */
  readonly specFiles: readonly SpecFileDigest[];
  readonly coverage: CoverageFigure;
  readonly load?: LoadAttestation | null;
}

/** The predicate for a results document. Every verdict and total is copied from it, never recomputed. */
export function certificationPredicate(doc: ResultsDocument, inputs: PredicateInputs): CertificationPredicate {
  const catalogue = inputs.specFiles.find((f) => f.path === 'rules.yaml');
  if (!catalogue) throw new Error('the spec files hold no rules.yaml (the rule catalogue)');
  const { run } = doc;
  return {
    target: { url: run.target.url, embedded: run.target.embedded },
    erpcert: { version: doc.tool.version },
    spec: {
      sha256: doc.spec.sha256,
      versions: { rest: doc.spec.versions.rest, portal: doc.spec.versions.portal },
      files: inputs.specFiles,
      ruleCatalogue: catalogue,
    },
    run: {
      profile: run.profile,
      seed: run.seed,
      runs: run.runs,
      only: run.only,
      shard: run.shard,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      runTag: run.runTag,
      outcome: run.outcome,
      interrupted: run.interrupted,
    },
    totals: { ...doc.totals },
    coverage: inputs.coverage,
    rules: doc.rules.map((r) => ({
      id: r.id,
      verdict: r.verdict,
      standing: r.standing,
      observable: r.observable,
      ...(r.causedBy?.length ? { causedBy: [...r.causedBy] } : {}),
    })),
    load: inputs.load ?? null,
  };
}
