/** A rule-id glob that cannot be used: empty, or with characters no rule id can hold. */
export class RuleGlobError extends Error {
  override readonly name = 'RuleGlobError';
  constructor(
    readonly glob: string,
    reason: string,
  ) {
    super(`rule glob ${JSON.stringify(glob)}: ${reason}`);
  }
}

/**
 * Compiles a rule-id glob (`erpcert conform --only`) into a predicate.
 *
 * @remarks `*` matches any run of characters, dots included (`PORTAL.*` is every portal rule,
 * `REST.*.RANGE*` every REST rule whose name starts with RANGE); `?` matches one character;
 * a comma separates alternatives (`PORTAL.LOOKUP.*,REST.SEQ.*`). Matching ignores case.
 * Throws {@link RuleGlobError} for an empty glob or one with characters other than
 * letters, digits, `_`, `.`, `*`, `?` and `,`.
 */
export function compileRuleGlob(glob: string): (id: string) => boolean {
  const alternatives = glob.split(',').map((g) => g.trim());
  if (alternatives.some((g) => g === '')) throw new RuleGlobError(glob, 'empty pattern');
  const bad = alternatives.find((g) => !/^[A-Za-z0-9_.*?]+$/.test(g));
  if (bad !== undefined) {
    throw new RuleGlobError(glob, `${JSON.stringify(bad)} may hold only letters, digits, "_", ".", "*" and "?"`);
  }
  const patterns = alternatives.map(
    (g) => new RegExp(`^${g.replace(/\./g, '\\.').replace(/\*+/g, '.*').replace(/\?/g, '.')}$`, 'i'),
  );
  return (id) => patterns.some((p) => p.test(id));
}
