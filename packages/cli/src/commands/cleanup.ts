import { type Command, targetFlags } from '../command.js';
import type { FlagDef } from '../options.js';

/** The target flags cleanup uses, without defaults: a report folder's own values apply unless a flag is given. */
const connectionFlags: readonly FlagDef[] = targetFlags
  .filter((f) => ['target', 'user', 'password', 'compcode', 'portal-path', 'company-in'].includes(f.name))
  .map(({ default: _default, ...f }) => {
    if (f.name === 'target')
      return { ...f, help: 'base URL of the ERP (default: the target the report folder names; needed with --tag)' };
    if (f.name === 'portal-path' || f.name === 'company-in')
      return { ...f, help: `${f.help} (default: the report's, else ${_default})` };
    return f;
  });

/**
 * `erpcert cleanup DIR | --tag TAG`: removes what a conformance or load run left on the target, through the
 * documented APIs, and reports what stays and why (issue 11 §2; README "Staging safety").
 */
export const cleanup: Command = {
  name: 'cleanup',
  summary: 'remove what a conformance or load run left on the target (exit 0 done, 1 something failed, 2 error)',
  positionals: [
    {
      name: 'DIR',
      optional: true,
      help: 'the report folder of the conformance or load run to clean up (or --tag TAG --target URL instead)',
    },
  ],
  flags: [
    ...connectionFlags,
    {
      name: 'unok-usercode',
      type: 'string',
      arg: 'U',
      help: 'a portal user code with the un-confirm permission: confirmed invoices and orders are un-confirmed (unokrecord), then deleted',
    },
    {
      name: 'tag',
      type: 'string',
      arg: 'TAG',
      help: 'a run tag (EC4K2Q, erpcert-load-1a2b3c4d) instead of a report folder: search the target for its records',
    },
    {
      name: 'fixtures',
      type: 'boolean',
      help: 'also remove or close the fixture set (codes starting with --fixture-prefix), which runs keep and reuse',
    },
    {
      name: 'fixture-prefix',
      type: 'string',
      arg: 'PREFIX',
      help: 'code prefix of the fixture set (default: ERPCERT-FX-)',
    },
    { name: 'dry-run', type: 'boolean', help: 'list what would be deleted, closed or left, and touch nothing' },
    { name: 'pace', type: 'string', arg: 'R', help: 'at most R delete/close requests per second' },
    {
      name: 'read-pause',
      type: 'int',
      arg: 'MS',
      help: 'pause between the pages of a register read (default 1000: "about one second", record-rest-api.md §4 rule 12)',
    },
    { name: 'batch', type: 'int', arg: 'N', help: 'records per page read, 1000 to 5000 (default 1000)' },
    { name: 'timeout', type: 'int', arg: 'S', help: 'seconds to wait for one answer (default 15)' },
    {
      name: 'out',
      type: 'string',
      arg: 'DIR',
      help: 'where --tag and --fixtures write cleanup.json (default: reports/cleanup/<timestamp>); a report folder gets its own',
    },
  ],
  details: [
    'erpcert cleanup DIR reads the run of the report folder DIR (its results.json and ledger.jsonl) and removes',
    'the records the run created: the portal delete where the docs list it (IVVc, VIVc, ORVc, QTVc, ActVc, CUVc,',
    'EPOrderDocVc), after unokrecord for a confirmed IVVc or ORVc (with --unok-usercode); PATCH of the field that',
    'closes a record where there is no documented delete (INVc Terminated, ObjVc TerminateFlag, AccVc blockedFlag,',
    'UserVc Closed, GCVc Closed, ContactRelVc Invalid). Journal entries (TRVc) and other registers without either',
    'stay, and are listed by key. erpcert cleanup --tag TAG --target URL does the same for a run whose folder is',
    'lost, by reading the registers runs write into. Before it touches a record, cleanup reads it: a record that does',
    'not carry the run tag where runs put it (the code prefix, a row Spec or Comment) is never touched, even when',
    'the ledger names it. The fixture set (codes starting with ERPCERT-FX-) stays unless --fixtures is given.',
    'Writes cleanup.json (the report folder, or --out) and prints what stayed and why; --dry-run only lists.',
    'Password from --password, ERPCERT_PASSWORD or erpcert.config.json; the report folder never holds it.',
    'Exit codes: 0 everything removable was removed or closed; 1 a removal failed or a register could not be read;',
    '2 not a report folder, a tag that matches nothing, target unreachable or credentials refused (nothing touched).',
  ].join('\n'),
  run: async (values, positionals, io) =>
    (await import('../cleanup/run-cleanup.js')).runCleanup(values, positionals, io),
};
