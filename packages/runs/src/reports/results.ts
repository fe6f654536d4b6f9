/**
 * The results document of a conformance run: `results.json`, described for other tools by
 * `results.schema.json` beside this file (keep the two in step; a test validates every written document
 * against the schema). Stable API: add optional fields freely, change or remove one only with a new
 * {@link RESULTS_SCHEMA_VERSION}. Absent values are `null`, never missing.
 */

import type { Profile, RecordedExchange, ThrottleCounts, Verdict } from '@erpcert/conformance/runner';
import type { RuleKind, RuleStanding } from '@erpcert/contract';
import type { JudgedCoverage } from './coverage-line.js';

/**
 * Version of the results.json layout. 2 (issue 9): the verdict ERROR (in every verdict and count), the
 * `observations` of every rule and test, and `verdict` on every failure entry (FAIL or ERROR). 3 (issue 19):
 * the verdict KNOWN (a FAIL or ERROR of a rule the run's known-deviations file accepts) in every rule verdict and
 * count, `known` on every rule and failure entry, and the `knownDeviations` section.
 */
export const RESULTS_SCHEMA_VERSION = 3;

/**
 * A rule's verdict in the report: one of the five the tests give, `KNOWN` when the run's known-deviations file
 * (`--baseline`) accepts the rule's FAIL or ERROR (never counted as PASS), or `NONE` when nothing judged it.
 */
export type ReportVerdict = Verdict | 'KNOWN' | 'NONE';

/** Counts of rules per verdict. */
export interface VerdictCounts {
  readonly rules: number;
  readonly PASS: number;
  readonly FAIL: number;
  readonly ERROR: number;
  readonly WARN: number;
  readonly SKIP: number;
  /** FAILs and ERRORs the known-deviations file accepts. */
  readonly KNOWN: number;
  readonly NONE: number;
  /**
   * Of the FAILs, those that follow from another FAILed rule (`causedBy`): "FAIL 5 (1 cause, 4 following)". Optional:
   * added in issue 28 without a version bump; absent in older documents.
   */
  readonly following?: number;
}

/** The per-area line of the summary (`REST.QUERY`). */
export interface AreaCounts extends VerdictCounts {
  readonly area: string;
}

/** Where the run went and how. */
export interface TargetInfo {
  readonly url: string;
  /** True when `erpcert conform` started the reference server itself (no `--target`). */
  readonly embedded: boolean;
  readonly user: string | null;
  readonly compcode: number | null;
  /** The second company of REST.QUERY.COMPCODE and PORTAL.GLOBAL.COMPNO (`--other-compcode`). Optional: added later. */
  readonly otherCompcode?: number | null;
  readonly companyIn: 'query' | 'path';
  readonly portalPath: string;
  readonly portalcc: string | null;
  readonly usercode: string | null;
}

export interface RunInfo {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly target: TargetInfo;
  readonly profile: Profile;
  readonly runs: number | null;
  readonly seed: number | null;
  readonly path: string | null;
  readonly only: string | null;
  readonly shard: string | null;
  readonly pace: number | null;
  readonly runTag: string;
  readonly interrupted: boolean;
  /** Throttled answers (429, or 503 with Retry-After) the run met; absent when the target throttled none. */
  readonly throttling?: ThrottleCounts;
  /** `pass`: no FAIL and no ERROR; `fail`: a FAIL or an ERROR (exit 1); `error`: the run could not be completed (exit 2). */
  readonly outcome: 'pass' | 'fail' | 'error';
  readonly exitCode: 0 | 1 | 2;
  /** The command that repeats this run (secrets left out). */
  readonly command: string;
}

/** The contract the run checked against. */
export interface SpecInfo {
  /** `info.version` of specs/record-rest.openapi.yaml and specs/portal-action.openapi.yaml. */
  readonly versions: { readonly rest: string; readonly portal: string };
  /** SHA-256 over every file of specs/ (sorted paths, each path and its bytes). */
  readonly sha256: string;
  readonly files: number;
}

/** One row of the rule matrix. */
export interface RuleResult {
  readonly id: string;
  readonly area: string;
  readonly title: string;
  readonly doc: string;
  readonly section: string;
  /** `record-rest-api.md#4-endpoints`. */
  readonly docAnchor: string;
  readonly kind: RuleKind;
  readonly standing: RuleStanding;
  readonly observable: boolean;
  readonly inferredFrom: string | null;
  readonly verdict: ReportVerdict;
  /**
   * Checks of this rule that asserted against target data in this run, over every test (passing or not). A
   * PASS has at least one; a rule with none is never PASS.
   */
  readonly observations: number;
  /**
   * Of {@link observations}, the decisive ones: the data reached the case that separates a right server from a
   * wrong one (a column with more cards than `maxsize`, records on both sides of a filter, more matches than a
   * cap). A rule observed only indecisively is never PASS: it SKIPs, saying what was missing.
   */
  readonly decisiveObservations: number;
  /** Some test of the suite names this rule (whether or not it ran here). */
  readonly tested: boolean;
  /** Failure message, error, skip reason (`not exercised: ...` for a rule no check observed) or advisory. */
  readonly reason: string | null;
  /** Ids of the tests that judged it in this run. */
  readonly tests: readonly string[];
  /** Indexes into {@link ResultsDocument.failures}: the FAILs and ERRORs behind the verdict. */
  readonly failures: readonly number[];
  /** For a KNOWN rule: the verdict the tests gave and the entry that accepts it; else null. */
  readonly known: KnownVerdictInfo | null;
  /**
   * A FAIL that follows from other FAILed rules (issue 28): the rules it relies on (`reliesOn:` in rules.yaml)
   * through whose behaviour every failing run's data passed, and which FAILed in this run. null for a rule that
   * FAILed on its own (a cause) and for every other verdict. Optional: absent in documents before issue 28.
   */
  readonly causedBy?: readonly string[] | null;
}

/** What made a rule KNOWN. */
export interface KnownVerdictInfo {
  /** The verdict of the tests, which the known-deviations file accepts. */
  readonly verdict: 'FAIL' | 'ERROR';
  readonly reason: string;
  readonly expires: string | null;
  readonly ticket: string | null;
}

/** The run's known-deviations file (`--baseline`) and what this run made of each entry. */
export interface KnownDeviationsInfo {
  /** The file as named on the command line or in erpcert.config.json. */
  readonly file: string;
  readonly entries: number;
  /** `--strict-baseline`: a fixed entry fails the run. */
  readonly strict: boolean;
  /** Listed rules that FAILed or ERRORed: KNOWN. */
  readonly known: readonly string[];
  /** Listed rules that PASSed: "fixed: remove it from the baseline". */
  readonly fixed: readonly string[];
  /** Entries past their expiry day: they accept nothing and fail the run. */
  readonly expired: readonly { readonly rule: string; readonly expires: string }[];
  /** Listed rules this run did not judge PASS, FAIL or ERROR (outside --only, SKIP, not judged). */
  readonly unjudged: readonly string[];
  /** Listed rules without a reason (written by --write-baseline and not filled in). */
  readonly withoutReason: readonly string[];
  /** `--write-baseline`: the rules this run added to the file (null when the run wrote no file). */
  readonly added: readonly string[] | null;
}

/** One test that ran. */
export interface TestEntry {
  /** `<file> > <suite> > <test name>`. */
  readonly id: string;
  readonly file: string;
  readonly name: string;
  readonly rules: readonly string[];
  readonly state: 'passed' | 'failed' | 'skipped';
  readonly verdicts: Readonly<Record<string, ReportVerdict>>;
  readonly reason: string | null;
  /** Observations per rule id made by this test (any rule, tagged or not). */
  readonly observations: Readonly<Record<string, number>>;
  /**
   * The behaviours (rule ids) the test's requests passed data through (issue 28, suites harness through.ts); absent
   * when none.
   */
  readonly through?: readonly string[];
  /** Decisive observations per rule id made by this test (see {@link RuleResult.decisiveObservations}). */
  readonly decisiveObservations: Readonly<Record<string, number>>;
  readonly durationMs: number | null;
}

/** A FAIL or an ERROR with what reproduces it and the exchange it rests on. */
export interface FailureEntry {
  readonly test: string;
  /**
   * FAIL: `rules` are broken (a violation, a shape precondition, a transport rule). ERROR: `rules` could not
   * be judged, because the target faulted (5xx, no answer, a body that does not parse) or the suite did.
   */
  readonly verdict: 'FAIL' | 'ERROR';
  /** The rules this entry makes FAIL, or ERROR. */
  readonly rules: readonly string[];
  /** Every rule of the entry is KNOWN: accepted by the known-deviations file. */
  readonly known: boolean;
  /**
   * The FAILed rules this entry's FAILs follow from (issue 28): the failing run passed through their behaviour and
   * its rules rely on them; null when it follows from none. Optional: absent in documents before issue 28.
   */
  readonly causedBy?: readonly string[] | null;
  readonly message: string;
  readonly counterexample: string | null;
  readonly seed: number | null;
  readonly path: string | null;
  readonly shrinks: number | null;
  /** vitest's error messages. */
  readonly errors: readonly string[];
  /** Masked exchanges; the last one broke the rule. */
  readonly exchanges: readonly RecordedExchange[];
  /** The last exchange as a curl command, credentials as `$ERPCERT_USER:$ERPCERT_PASSWORD`. */
  readonly curl: string | null;
  readonly replay: string;
}

/** Rules with and without tests, per standing, over the rules in scope. */
export interface CoverageInfo {
  readonly documented: { readonly withTests: readonly string[]; readonly withoutTests: readonly string[] };
  readonly inferred: { readonly withTests: readonly string[]; readonly withoutTests: readonly string[] };
  /** Unspecified rules in scope (never a FAIL), and how many have tests. */
  readonly unspecified: { readonly total: number; readonly withTests: number };
  /** Rules no black-box client can check. */
  readonly notObservable: readonly string[];
  /** The coverage line: documented observable rules judged, of how many (optional: added without a version bump). */
  readonly judged?: JudgedCoverage;
}

/** A record the run could not delete. */
export interface ResidueItem {
  readonly register: string;
  readonly key: string;
  readonly company: number | null;
  readonly status: 'closed' | 'left';
  readonly reason: string;
}

/** What the cleanup did. */
export interface CleanupInfo {
  readonly ledgerEntries: number;
  readonly deleted: number;
  readonly alreadyGone: number;
  readonly residue: readonly ResidueItem[];
}

/** One fixture set (suites/conformance fixture-scheme.ts) and what this run found and did. */
export interface FixtureSetInfo {
  readonly id: string;
  readonly register: string;
  /** First and last code, `ERPCERT-FX-LK01 to ERPCERT-FX-LK55`. */
  readonly codes: string;
  /** Records the set holds when complete. */
  readonly count: number;
  readonly purpose: string;
  /** Why the set stays on the target. */
  readonly why: string;
  readonly rules: readonly string[];
  /** `not-checked`: no test of this run needed the set. */
  readonly status: 'complete' | 'incomplete' | 'not-checked';
  readonly present: number | null;
  readonly created: number;
  readonly repaired: number;
  readonly missing: readonly string[];
  readonly reason: string | null;
}

/** The fixture set: records the suite keeps on the target between runs, apart from the run's residue. */
export interface FixturesInfo {
  /** Every fixture record's key starts with it (`--fixture-prefix`). */
  readonly prefix: string;
  readonly scheme: string;
  readonly sets: readonly FixtureSetInfo[];
}

/** How the folder is signed (`erpcert conform --sign-key`, `erpcert certify`; src/attest/). */
export interface AttestationInfo {
  /** The DSSE envelope beside results.json: `attestation.intoto.jsonl`. */
  readonly file: string;
  readonly predicateType: string;
  /** `sha256:<hex>` of the signing key's public DER SubjectPublicKeyInfo. */
  readonly keyFingerprint: string;
  readonly keyAlgorithm: 'ecdsa-p256' | 'ed25519';
}

/** results.json. */
export interface ResultsDocument {
  readonly schemaVersion: typeof RESULTS_SCHEMA_VERSION;
  readonly kind: 'erpcert-conformance';
  readonly tool: { readonly name: 'erpcert'; readonly version: string };
  readonly run: RunInfo;
  readonly spec: SpecInfo;
  /** Over {@link rules}. */
  readonly totals: VerdictCounts;
  readonly areas: readonly AreaCounts[];
  /**
   * The rules in scope (every rule, or those `--only` selects), in catalogue order, then any rule outside the
   * selection that a selected test found broken (a FAIL is never dropped).
   */
  readonly rules: readonly RuleResult[];
  readonly tests: readonly TestEntry[];
  readonly failures: readonly FailureEntry[];
  readonly coverage: CoverageInfo;
  readonly cleanup: CleanupInfo;
  /** The fixture set (added in schema version 1; absent in older documents). */
  readonly fixtures?: FixturesInfo;
  /** The known-deviations file of the run (`--baseline`), null without one. */
  readonly knownDeviations: KnownDeviationsInfo | null;
  /** Defects of the run or the suite: files that did not load, tests without rule ids, unknown ids, ... */
  readonly problems: readonly string[];
  /** The signature over this folder; absent or null when it is not signed. */
  readonly attestation?: AttestationInfo | null;
}
