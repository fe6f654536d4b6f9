// The stateful model test (issue 5 "A stateful model test"): fc.commands with asyncModelRun over create
// (REST form POST), update (PATCH), delete (portal delete), convert (quotation -> order -> invoice),
// un-confirm, and reads (REST list by filter, the sequence feed), compared with a model of the run's
// documents (model.ts). Each run starts from an empty model and creates its own tagged, ledgered records;
// whatever a run leaves is deleted at its end (and by the run's cleanup from the ledger otherwise).
import fc from 'fast-check';
import { describe } from 'vitest';
import { deleteRecord, ruleProperty, TARGET_ENV } from '../../src/harness/index.js';
import { attempt, documentBasis } from '../../src/harness/portal.js';
import { ConvertCmd, CreateCmd, DeleteCmd, FeedCmd, ReadCmd, UnokCmd, UpdateCmd } from './commands.js';
import { DocModel, type DocReal } from './model.js';

const quants = fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 3 });

const commands = fc.commands(
  [
    fc
      .tuple(fc.constantFrom('QTVc' as const, 'ORVc' as const, 'IVVc' as const), quants, fc.boolean())
      .map(([register, q, confirmed]) => new CreateCmd(register, q, confirmed)),
    fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 20 })).map(([p, row, q]) => new UpdateCmd(p, row, q)),
    fc.nat().map((p) => new DeleteCmd(p)),
    fc.tuple(fc.nat(), fc.nat()).map(([p, w]) => new ConvertCmd(p, w)),
    fc.nat().map((p) => new UnokCmd(p)),
    fc.nat().map((p) => new ReadCmd(p)),
    fc.constant(new FeedCmd()),
  ],
  { maxCommands: 10, size: 'medium' },
);

describe('stateful model of documents across both APIs', () => {
  ruleProperty(
    [
      'REST.WRITE.CREATE_FORM',
      'REST.WRITE.UPDATE_PATCH',
      'REST.QUERY.FILTER_EXACT',
      'REST.SEQ.MONOTONIC',
      'REST.SEQ.UPDATES_AFTER',
      'REST.SEQ.DELETES_AFTER',
      'REST.SEQ.CHANGE_FEED',
      'PORTAL.DELETE.ACTION',
      'PORTAL.DELETE.RECORD_GONE',
      'PORTAL.CONVERT.NEWDATA_EXISTS',
      'PORTAL.UNOK.TO_DRAFT',
    ],
    'create / update / delete / convert / un-confirm sequences leave the target as the model says (records, rows, OKFlag, feed)',
    [commands],
    async (ctx, cmds) => {
      const basis = await documentBasis(ctx);
      const real: DocReal = {
        ctx,
        customer: basis.customer,
        items: basis.items,
        unokUser: process.env[TARGET_ENV.unokUsercode] || undefined,
        convertUser: ctx.target.usercode ?? (process.env[TARGET_ENV.unokUsercode] || undefined),
      };
      const model = new DocModel();
      try {
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      } finally {
        // this run's documents go now, newest first: confirmed ones are un-confirmed first
        for (const d of [...model.docs].reverse().filter((x) => x.live)) {
          if (d.okFlag === '1' && real.unokUser)
            await attempt(ctx.client.portal.unokrecord({ regname: d.register, id: d.serNr, usercode: real.unokUser }));
          await attempt(deleteRecord(ctx, d.register, d.serNr));
        }
      }
    },
    {
      numRuns: 8,
      writes: true,
      // one fixed sequence first, in every run: a create, an update and a delete, then the feed and a read, so
      // that the feed rules (CHANGE_FEED among them) are observed whatever the generated sequences happen to hold
      examples: [
        [
          [
            new CreateCmd('QTVc', [2, 3], false),
            new CreateCmd('IVVc', [1], false),
            new UpdateCmd(0, 1, 7),
            new DeleteCmd(1),
            new FeedCmd(),
            new ReadCmd(0),
          ],
        ],
        // and an un-confirm read back, in every run (issue 28): the record the model holds as a draft after
        // unokrecord is read and changed, so a FAIL on it follows from PORTAL.UNOK.TO_DRAFT when that FAILed
        // (without a usercode holding the permission the create makes a draft and UnokCmd does not apply)
        [[new CreateCmd('IVVc', [1], true), new UnokCmd(0), new ReadCmd(0), new UpdateCmd(0, 0, 5), new ReadCmd(0)]],
      ],
    },
  );
});
