/** A rule id, `<API>.<AREA>.<NAME>` (`PORTAL.LOOKUP.CAP50`); stable API, see specs/rules.yaml. */
export type RuleId = string;

/** The two API documents, as named in `docs/`. */
export const RULE_DOCS = ['record-rest-api.md', 'portal-action-api.md'] as const;
/** The document a rule comes from. */
export type RuleDoc = (typeof RULE_DOCS)[number];

/** The API a rule belongs to: the first part of its id. */
export type RuleApi = 'REST' | 'PORTAL';
/** Which document each API is described in. */
export const API_DOC: Readonly<Record<RuleApi, RuleDoc>> = {
  REST: 'record-rest-api.md',
  PORTAL: 'portal-action-api.md',
};

/** What a rule is about. */
export const RULE_KINDS = ['shape', 'semantic', 'limit', 'state', 'auth', 'performance'] as const;
/** What a rule is about: a shape, a meaning, a limit, a state change, authentication, or a performance figure. */
export type RuleKind = (typeof RULE_KINDS)[number];

/** How firmly the docs hold a rule. */
export const RULE_STANDINGS = ['documented', 'inferred', 'unspecified'] as const;
/**
 * `documented`: stated (a deviation is a FAIL); `inferred`: follows directly from what is stated (a FAIL
 * too, reported with {@link Rule.inferredFrom}); `unspecified`: the docs say "not shown" (never a FAIL).
 */
export type RuleStanding = (typeof RULE_STANDINGS)[number];

/** The REST operations `appliesTo` may name (record-rest-api.md §4, plus the unshown GET by key). */
export const REST_OPERATIONS = ['root', 'list', 'create-form', 'create-json', 'update', 'get-by-key'] as const;

/**
 * The behaviours a check's data can pass through (issue 28): the rules `reliesOn:` may name. The conformance harness
 * recognises each in the requests a test sends (suites/conformance/src/harness/through.ts): rows placed by
 * `set_row_field.<N>`, records found by `filter.<Field>`, a record confirmed by `set_field.OKFlag=1` on the POST, a
 * draft made by `unokrecord`, a field trigger of the row `rowindex` names, the records a `range` selects on the field
 * `sort` names (record-rest-api.md §4: "range requires sort").
 */
export const PASSABLE_BEHAVIOURS = [
  'REST.WRITE.FORM_ROW_INDEX',
  'REST.QUERY.FILTER_EXACT',
  'REST.STATE.OKFLAG_CONFIRM_ON_POST',
  'PORTAL.UNOK.TO_DRAFT',
  'PORTAL.TRIGGER.ROWINDEX',
  'REST.QUERY.SORT_ASCENDING',
] as const;

/** A value in {@link Rule.params}. */
export type RuleParamValue = string | number | boolean | readonly string[] | readonly number[];

/** One entry of the rule catalogue (specs/rules.yaml). */
export interface Rule {
  /** `<API>.<AREA>.<NAME>`. */
  readonly id: RuleId;
  /** `REST` or `PORTAL`, from the id. */
  readonly api: RuleApi;
  /** `<API>.<AREA>`, from the id: the group of the report's per-area summary. */
  readonly area: string;
  /** The behaviour as one checkable statement. */
  readonly title: string;
  /** The document the rule comes from. */
  readonly doc: RuleDoc;
  /** The heading of the deepest section of {@link doc} that holds {@link quote}, as written there. */
  readonly section: string;
  /** Verbatim doc text the rule rests on (compared with whitespace and markdown emphasis normalised). */
  readonly quote: string;
  readonly kind: RuleKind;
  readonly standing: RuleStanding;
  /** For `inferred` rules: what the rule follows from. */
  readonly inferredFrom?: string;
  /**
   * Whether a black-box HTTP client can check the rule at all.
   * @defaultValue true
   */
  readonly observable: boolean;
  /** Why the rule is not observable; present exactly when {@link observable} is false. */
  readonly why?: string;
  /** The registers the rule applies to; absent when it is not register-specific. */
  readonly registers?: readonly string[];
  /**
   * The operations it applies to: for REST one of {@link REST_OPERATIONS}, for the portal an action or
   * sub-action name, or `list` for a list query. Absent: every operation of its API.
   */
  readonly appliesTo?: readonly string[];
  /**
   * The parts of documented response bodies the rule states: path patterns of contract/src/body-paths.ts
   * (`portal-list:data/IVVc/Sum4`, `rest-envelope:data/IVVc/@url#value`; wildcards in the header of rules.yaml). A schema failure at a path is blamed on its owner.
   */
  readonly covers?: readonly string[];
  /**
   * The rules whose behaviour this rule's checks pass their data through (`reliesOn:` in rules.yaml): rows written
   * by the form POST rely on REST.WRITE.FORM_ROW_INDEX. A FAIL of this rule on data that passed through one of them,
   * in a run where that rule FAILed too, is reported as following from it (`causedBy`). Ids of the catalogue, never
   * the rule itself, never unspecified rules, without cycles (checked by parseRules).
   */
  readonly reliesOn?: readonly RuleId[];
  /** Figures and values a check needs (limits, formulas, allowed values, field lists). */
  readonly params?: Readonly<Record<string, RuleParamValue>>;
}
