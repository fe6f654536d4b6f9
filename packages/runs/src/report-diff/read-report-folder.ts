/**
 * Reads the results.json of a report folder for `erpcert report diff`: a conformance run (`erpcert conform`,
 * results schema version 2 or 3) or a load run (`erpcert load`, checked by load/read-load-run.ts).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LOAD_RESULTS_SCHEMA, type LoadRunDocument } from '../load/load-results.js';
import { validateLoadResults } from '../load/load-results-validate.js';
import { LoadRunReadError, readLoadRun } from '../load/read-load-run.js';
import type { ReportVerdict } from '../reports/results.js';

/** The part of a conformance results.json the diff reads; version 2 documents (no KNOWN) read the same way. */
export interface ConformanceRunSummary {
  readonly kind: 'conformance';
  readonly schemaVersion: number;
  readonly startedAt: string;
  readonly profile: string;
  readonly only: string | null;
  readonly targetUrl: string;
  /** The embedded reference server (its URL is a fresh port every run). */
  readonly embedded: boolean;
  readonly exitCode: number;
  readonly rules: readonly {
    readonly id: string;
    readonly verdict: ReportVerdict;
    readonly reason: string | null;
    /** A FAIL that follows from other FAILed rules (issue 28); absent otherwise and in older documents. */
    readonly causedBy?: readonly string[];
  }[];
}

export type ReportRun = ConformanceRunSummary | { readonly kind: 'load'; readonly doc: LoadRunDocument };

/** A folder `report diff` cannot read: exit 2 with the message. */
export class ReportFolderError extends Error {
  override readonly name = 'ReportFolderError';
}

const VERDICTS = new Set(['PASS', 'FAIL', 'ERROR', 'WARN', 'SKIP', 'KNOWN', 'NONE']);

function conformanceRun(doc: Record<string, unknown>, shown: string): ConformanceRunSummary {
  const bad = (what: string) => new ReportFolderError(`${shown}/results.json: ${what}`);
  const version = doc.schemaVersion;
  if (version !== 2 && version !== 3)
    throw bad(`conformance results schema version ${JSON.stringify(version)}; report diff reads versions 2 and 3`);
  const run = doc.run as Record<string, unknown> | undefined;
  const rules = doc.rules;
  if (typeof run !== 'object' || run === null || !Array.isArray(rules)) throw bad('no run or rules');
  const read = rules.map((r, i) => {
    const rule = r as Record<string, unknown>;
    if (typeof rule?.id !== 'string' || typeof rule.verdict !== 'string' || !VERDICTS.has(rule.verdict))
      throw bad(`rules[${i}] has no id or verdict`);
    return {
      id: rule.id,
      verdict: rule.verdict as ReportVerdict,
      reason: typeof rule.reason === 'string' ? rule.reason : null,
      ...(Array.isArray(rule.causedBy) && rule.causedBy.length > 0
        ? { causedBy: rule.causedBy.filter((c): c is string => typeof c === 'string') }
        : {}),
    };
  });
  const target = run.target as Record<string, unknown> | undefined;
  return {
    kind: 'conformance',
    schemaVersion: version,
    startedAt: String(run.startedAt ?? ''),
    profile: String(run.profile ?? ''),
    only: typeof run.only === 'string' ? run.only : null,
    targetUrl: String(target?.url ?? ''),
    embedded: target?.embedded === true,
    exitCode: Number(run.exitCode),
    rules: read,
  };
}

/**
 * Reads `dir`/results.json. `shown` names the folder in messages (as the user gave it). Throws
 * {@link ReportFolderError} for a missing folder or file, JSON that does not parse, or a document of neither kind.
 */
export function readReportFolder(dir: string, shown: string): ReportRun {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ReportFolderError(`${shown} is not a folder`);
  const file = join(dir, 'results.json');
  if (!existsSync(file))
    throw new ReportFolderError(`${shown} holds no results.json (is it an erpcert conform or load report folder?)`);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ReportFolderError(`${shown}/results.json is not valid JSON: ${(err as Error).message}`);
  }
  return reportRunFromDocument(doc, shown, () => readLoadRun(dir), dir);
}

/**
 * The run a parsed results.json holds (the hub reads it from its store, not from a folder). `readLoad` reads and
 * checks a load document (readLoadRun for a folder); `dir` is replaced by `shown` in its messages.
 */
export function reportRunFromDocument(
  doc: unknown,
  shown: string,
  readLoad: () => LoadRunDocument = () => loadDocument(doc, shown),
  dir = shown,
): ReportRun {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new ReportFolderError(`${shown}/results.json holds no JSON object`);
  const o = doc as Record<string, unknown>;
  if (o.kind === 'erpcert-conformance') return conformanceRun(o, shown);
  if (o.schema === LOAD_RESULTS_SCHEMA) {
    try {
      return { kind: 'load', doc: readLoad() };
    } catch (err) {
      if (err instanceof LoadRunReadError) throw new ReportFolderError(err.message.split(dir).join(shown));
      throw err;
    }
  }
  throw new ReportFolderError(`${shown}/results.json is neither a conformance nor a load results document`);
}

/** A parsed load results document, checked against load-results.schema.json. */
function loadDocument(doc: unknown, shown: string): LoadRunDocument {
  const check = validateLoadResults(doc);
  if (!check.valid)
    throw new ReportFolderError(
      `${shown}/results.json does not match load-results.schema.json: ${check.errors.slice(0, 3).join('; ')}`,
    );
  return doc as LoadRunDocument;
}
