/**
 * The interface between the conformance tests and the runner that turns their outcomes into verdicts and
 * reports. Tests never write verdicts themselves: the harness (`src/harness/`) records what a test checked,
 * what it observed and what it saw in `task.meta.erpcert`; the runner's vitest reporter (`src/runner/`)
 * reads it back and applies runner/verdict.ts `verdictsOf`:
 *
 * - Observations: every `expectRule`/`violated`/`needShape` check and every `ctx.observe(rule)` counts one
 *   observation of its rule (`observations`). A rule that no check of a test observed gets no PASS from it:
 *   SKIP "not exercised". The decisive ones (`decisive`: the data reached the case that tells a right server
 *   from a wrong one) are counted apart; a rule observed only indecisively (`undecided`) gets no PASS either:
 *   SKIP "no observation reached the case that tells right from wrong: <what was missing>".
 * - A refusal (an ERP error answer or a 4xx) of a request the test declared accepted (accepted.ts) throws a
 *   `RequestRefused`, a violation of the rule that allows the request: that rule FAILs.
 * - vitest passed: PASS for every observed rule, tagged or not (WARN for the tagged ones with an `advisory`
 *   in the strict profile), SKIP "not exercised" for the test's rules without an observation.
 * - vitest skipped (`skipReason`: target lacks data, permission, module; readonly profile) -> SKIP.
 * - vitest failed, by `failure.kind`:
 *   - `violation` (a ContractViolation `[RULE.ID] ...`): the named rules FAIL, tagged or not; the test's
 *     other rules get no verdict from it (the test stopped before it could tell).
 *   - `precondition` (`needShape`): the shape rule FAILs once; the test's other rules get ERROR.
 *   - `target-fault` (5xx, a body that does not parse, a reset or timeout: `faults`): the transport rules
 *     of the faults FAIL with the exchange; the test's other rules get ERROR.
 *   - `defect` (anything else: a plain assertion error, a TypeError of the suite): the test's rules get
 *     ERROR with the message, never FAIL; a defect of the suite or a target problem nobody classified.
 *   Unspecified rules never FAIL or ERROR: WARN in strict, nothing in the other profiles.
 * - Every fault in `faults`, of any test, FAILs its transport rule (a 5xx answered in HTML breaks a rule
 *   even where a test tolerated it); a skipped test whose exchanges hold a fault gets ERROR instead of SKIP.
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
  /** How the runner reads the failure (header of this file). Absent: read from the message, as `violation`
   * when it starts with `[RULE.ID]`, else `defect`. */
  readonly kind?: FailureKind;
  /** The rules the failure FAILs: the violated rule, the shape rule, the transport rules of the faults. */
  readonly rules?: readonly string[];
  /**
   * The behaviours (rule ids) the failing run's requests passed data through (through.ts): with `reliesOn:` of
   * the catalogue, what makes this FAIL a follower of another rule's FAIL in the same run (`causedBy`).
   */
  readonly through?: readonly string[];
}

/** How a failed test failed (header of this file). */
export type FailureKind = 'violation' | 'precondition' | 'target-fault' | 'defect';

/**
 * The target misbehaved below the contract's level: a 5xx, a body that does not parse, a reset or a timeout.
 * `rule` is the transport rule the answer broke (specs/rules.yaml), `null` when no rule can be blamed (a
 * timeout or reset: nothing was answered), which still gives the cut-short rules ERROR.
 */
export interface TargetFault {
  readonly rule: string | null;
  /** One line: what came back and why it breaks the rule. */
  readonly detail: string;
  /** The exchange that shows it, masked. */
  readonly exchange?: RecordedExchange;
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
  /** Checks of each rule that asserted against target data (passing or not), by rule id. */
  observations?: Record<string, number>;
  /**
   * Of those, the decisive ones (observations.ts): the data reached the case that separates a right server from
   * a wrong one. A check that states nothing is decisive unless its rule is one of decisive-cases.ts.
   */
  decisive?: Record<string, number>;
  /** Rules with an indecisive observation, with what the data lacked (the last one): without a decisive one, SKIP. */
  undecided?: Record<string, string>;
  /** Faults of the target seen during the test (at most a few), whether or not the test failed. */
  faults?: TargetFault[];
  /** Throttled answers (429, or 503 with `Retry-After`) of the test; absent when there were none. */
  throttling?: ThrottleCounts;
  /**
   * Rules a case of which was left without a verdict because what the check rests on was not confirmed by a
   * read (preconditions.ts), with the first reason: a rule no case judged SKIPs with it.
   */
  unconfirmed?: Record<string, string>;
  /** The behaviours the test's requests passed data through (through.ts); absent when none. */
  through?: string[];
}

/** What the client did with throttled answers (client retry-after.ts), summed over a test or a run. */
export interface ThrottleCounts {
  /** Answers the client waited out and sent again. */
  readonly retried: number;
  /** Milliseconds it waited for them, in all. */
  readonly waitedMs: number;
  /** Throttled answers it handed on: past its bounds, or a 429 without `Retry-After`. */
  readonly gaveUp: number;
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
  /**
   * Optional: the hub's SSRF guard (`conform --target-guard`): every connection's address is checked against it
   * at connect time (`@erpcert/contract` target-guard); `none` keeps the defaults alone.
   */
  targetGuard: 'ERPCERT_TARGET_GUARD',
  /** JSON-lines file every worker appends created records to; the runner cleans them up at the end. */
  ledger: 'ERPCERT_LEDGER',
  /** Maximum requests per second per worker (pacing). */
  pace: 'ERPCERT_PACE',
  /** Resends of one request after throttled answers (429/503 with Retry-After); 0 never waits. Default 3. */
  maxRetries: 'ERPCERT_MAX_RETRIES',
  /** The longest single Retry-After wait, in seconds; a longer one is not waited for. Default 30. */
  maxRetryWait: 'ERPCERT_MAX_RETRY_WAIT',
  /** Optional: a portal usercode holding the un-confirm permission (unokrecord, portal §4 rule 6). */
  unokUsercode: 'ERPCERT_UNOK_USERCODE',
  /** Prefix of the fixture set's codes (fixture-scheme.ts); default `ERPCERT-FX-`. */
  fixturePrefix: 'ERPCERT_FIXTURE_PREFIX',
  /** Optional: a portal usercode without report access and without the un-confirm permission (refusals). */
  limitedUsercode: 'ERPCERT_LIMITED_USERCODE',
  /**
   * Whether tests may make what the documented APIs cannot remove (permanent-writes.ts): `embedded` (the
   * embedded reference server), `allowed` (`--allow-permanent-writes`); unset or `refused`: they SKIP.
   */
  permanentWrites: 'ERPCERT_PERMANENT_WRITES',
} as const;
