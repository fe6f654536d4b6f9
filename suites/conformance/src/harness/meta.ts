/**
 * The interface between the conformance tests and the runner that turns their outcomes into verdicts and
 * reports. Tests never write verdicts themselves: the harness (`src/harness/`) records what a test checked
 * and what it saw in `task.meta.erpcert`; the runner's vitest reporter (`src/runner/`) reads it back.
 *
 * Verdict mapping (DESIGN.md "Verdicts and exit codes"), applied by the runner, not by tests:
 * - vitest passed, no `advisory`                                -> PASS for every rule in `rules`
 * - vitest passed with `advisory` (strict profile only)         -> WARN, with the advisory text
 * - vitest skipped with `skipReason` (target lacks data, permission, module; readonly profile) -> SKIP
 * - vitest failed, and at least one rule is documented/inferred  -> FAIL, with `failure`
 * - vitest failed, and every rule is unspecified                 -> WARN in strict, nothing in other profiles
 *   (the docs say "not shown": never a FAIL)
 * A failure whose message starts with the rule it broke (`[RULE.ID] ...`, as the harness's contract
 * violations do) judges only that rule; the test's other rules get no verdict from it
 * (runner/verdict.ts `violatedRules`). So tag a test with every rule it checks, and fail with the one broken.
 */

/** A request/response pair as the client observed it, secrets already masked by the client. */
export interface RecordedExchange {
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly body?: string;
  };
  readonly response?: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    /** Truncated to a few KiB for reports. */
    readonly body?: string;
  };
  /** Transport failure text when there was no response. */
  readonly error?: string;
  readonly durationMs?: number;
}

/** What a failing property or check leaves behind so that the report can show and replay it. */
export interface FailureDetail {
  /** One-line statement of what was violated, in the docs' words. */
  readonly message: string;
  /** The shrunk counterexample, pretty-printed (fast-check's `counterexample`), when a property failed. */
  readonly counterexample?: string;
  /** fast-check seed and path of the failing run, for `erpcert conform --only R --seed S --path P`. */
  readonly seed?: number;
  readonly path?: string;
  /** How many times fast-check shrank the counterexample. */
  readonly shrinks?: number;
  /** The exchanges of the failing (shrunk) run, masked; the last one is the one that broke the rule. */
  readonly exchanges: readonly RecordedExchange[];
}

/** What a conformance test records about itself. */
export interface ConformanceMeta {
  /** The rule ids (specs/rules.yaml) this test checks. Never empty. */
  readonly rules: readonly string[];
  /** Set when the test skipped itself: why (target lacks data, permission, module; profile forbids writes). */
  skipReason?: string;
  /** Set in the strict profile when an `unspecified` behaviour differs from the reference reading. */
  advisory?: string;
  /** Set when the test failed. */
  failure?: FailureDetail;
}

declare module 'vitest' {
  interface TaskMeta {
    erpcert?: ConformanceMeta;
  }
}

/** Environment variables through which the runner hands the target to the test workers. */
export const TARGET_ENV = {
  target: 'ERPCERT_TARGET',
  user: 'ERPCERT_USER',
  password: 'ERPCERT_PASSWORD',
  compcode: 'ERPCERT_COMPCODE',
  /** Optional: a second company whose data differs (REST.QUERY.COMPCODE, PORTAL.GLOBAL.COMPNO compare the two). */
  otherCompcode: 'ERPCERT_OTHER_COMPCODE',
  usercode: 'ERPCERT_USERCODE',
  portalcc: 'ERPCERT_PORTALCC',
  portalPath: 'ERPCERT_PORTAL_PATH',
  companyIn: 'ERPCERT_COMPANY_IN',
  profile: 'ERPCERT_PROFILE',
  runs: 'ERPCERT_RUNS',
  seed: 'ERPCERT_SEED',
  path: 'ERPCERT_PATH',
  /** Prefix that marks every record this run creates (staging safety). */
  runTag: 'ERPCERT_RUN_TAG',
  /** JSON-lines file every worker appends created records to; the runner cleans them up at the end. */
  ledger: 'ERPCERT_LEDGER',
  /** Maximum requests per second per worker (pacing). */
  pace: 'ERPCERT_PACE',
  /** Optional: a portal usercode holding the un-confirm permission (unokrecord, portal §4 rule 6). */
  unokUsercode: 'ERPCERT_UNOK_USERCODE',
  /** Prefix of the fixture set's codes (fixture-scheme.ts); default `ERPCERT-FX-`. */
  fixturePrefix: 'ERPCERT_FIXTURE_PREFIX',
  /** Optional: a portal usercode without report access and without the un-confirm permission (refusals). */
  limitedUsercode: 'ERPCERT_LIMITED_USERCODE',
} as const;
