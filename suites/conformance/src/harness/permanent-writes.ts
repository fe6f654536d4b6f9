/**
 * Writes the documented APIs cannot undo (DESIGN.md "Running against somebody's staging ERP"): a callback
 * registration (`registerapi` has no counterpart) or a signing session (the portal `delete` does not serve
 * ErpSignSessVc). A test that makes one runs against the embedded reference server, which goes away with the
 * run, or against any target when the user opts in with `--allow-permanent-writes`; otherwise it SKIPs and
 * says what it would leave. What it makes on a target that stays is in the ledger as permanent, so the report
 * lists it as residue with the reason.
 */
import { appendLedger } from '../runner/ledger.js';
import type { Profile } from '../runner/verdict.js';

/**
 * Whether the run may make what the documented APIs cannot remove (TARGET_ENV.permanentWrites):
 * `embedded`, the target is the embedded reference server of `erpcert conform`; `allowed`, the user opted in;
 * `refused`, neither (and the default of a direct vitest run).
 */
export type PermanentWrites = 'embedded' | 'allowed' | 'refused';

export const PERMANENT_WRITES: readonly PermanentWrites[] = ['embedded', 'allowed', 'refused'];

/** The conform option that opts in, and its other spellings (packages/cli/src/options.ts). */
export const PERMANENT_WRITES_OPT_IN =
  '--allow-permanent-writes (or ERPCERT_ALLOW_PERMANENT_WRITES=1, or "allow-permanent-writes": true in erpcert.config.json)';

/**
 * Why a test that leaves `leaves` does not run, or undefined when it runs: in the readonly profile it never
 * runs; otherwise against the embedded server or with the opt-in.
 */
export function permanentWriteSkip(profile: Profile, permanent: PermanentWrites, leaves: string): string | undefined {
  if (profile === 'readonly') return `readonly profile: this test writes, and leaves ${leaves}`;
  if (permanent === 'embedded' || permanent === 'allowed') return undefined;
  return (
    `this test would leave ${leaves} on the target, which the documented API cannot remove: ` +
    `it runs against the embedded reference server, or against this target with ${PERMANENT_WRITES_OPT_IN}`
  );
}

/** What a permanent write of a test needs of its context (a part of RuleContext). */
export interface PermanentWriteContext {
  readonly name: string;
  readonly target: { readonly ledger: string; readonly compcode?: number; readonly permanentWrites: PermanentWrites };
}

/**
 * Records in the ledger what a test made that cannot be removed: `register` and `key` name it, `reason` says
 * why it stays (the report's residue line). On the embedded server nothing is recorded: it goes with the run.
 */
export function ledgerPermanent(ctx: PermanentWriteContext, register: string, key: string, reason: string): void {
  if (ctx.target.permanentWrites === 'embedded') return;
  appendLedger(ctx.target.ledger, {
    register,
    key,
    ...(ctx.target.compcode !== undefined ? { company: ctx.target.compcode } : {}),
    test: ctx.name,
    at: new Date().toISOString(),
    permanent: reason,
  });
}
