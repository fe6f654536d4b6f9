// Attachments: upload, list, download byte-identical, delete (issue 5 "Id formats": file ids are UUIDs;
// portal-action-api.md §2 "Upload result", "Attachment list", "Identifier formats", attachment upload body,
// §4 "Upload attachment" to "Delete attachment", operation rule 10).
import fc from 'fast-check';
import { describe } from 'vitest';
import { createJson, expectRule, type RuleContext, ruleProperty, show, uniqueCode } from '../../src/harness/index.js';
import {
  assertPortalXml,
  attempt,
  createDocument,
  createPurchaseInvoice,
  describeOutcome,
  downloadFile,
  expectSuccess,
  getfileRefusal,
} from '../../src/harness/portal.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Registers of the doupload row (§2) whose records the suite can create itself (tagged) through /api/1/: VIVc
 * too (a purchase invoice, when the target has a vendor), and EPOrderDocVc where the target makes one there
 * (observed, not documented). ActVc, StockTakeVc and EPShiftSheetVc: no documented write makes one for the upload.
 */
const OWN_REGISTERS = ['IVVc', 'ORVc', 'QTVc', 'CUVc', 'VIVc', 'EPOrderDocVc'] as const;
type OwnRegister = (typeof OWN_REGISTERS)[number];

const records = new Map<OwnRegister, Promise<string>>();

/**
 * One tagged record per register for this file's uploads (each run uploads its own file to it); '' when the
 * target cannot make one of VIVc or EPOrderDocVc (that case then judges nothing).
 */
function recordOf(ctx: RuleContext, register: OwnRegister): Promise<string> {
  let p = records.get(register);
  if (!p) {
    if (register === 'CUVc')
      p = createJson(ctx, 'CUVc', [{ Code: uniqueCode(ctx, 'A'), Name: `${ctx.target.runTag} attachments` }], {
        format: 'json',
      }).then((c) => c[0]!.key);
    else if (register === 'VIVc')
      p = createPurchaseInvoice(ctx, ['10.00'], 'attachments').then((m) => (typeof m === 'string' ? '' : m.serNr));
    else if (register === 'EPOrderDocVc')
      p = attempt(
        createJson(ctx, 'EPOrderDocVc', [{ Comment: `${ctx.target.runTag} attachments` }], { format: 'json' }),
      ).then((o) => (o.ok ? o.value[0]!.key : ''));
    else p = createDocument(ctx, register, [{ stp: '1' }], 'attachments');
    records.set(register, p);
  }
  return p;
}

const fileName = fc
  .tuple(
    fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,19}$/),
    fc.constantFrom('txt', 'pdf', 'csv', 'bin', 'png', 'xml'),
  )
  .map(([base, ext]) => `${base}.${ext}`);

describe('attachments', () => {
  ruleProperty(
    [
      'PORTAL.ATTACH.DOUPLOAD',
      'PORTAL.ATTACH.UPLOAD_BODY',
      'PORTAL.ATTACH.BASE64_IN_XML',
      'PORTAL.ATTACH.UPLOAD_RESULT',
      'PORTAL.ATTACH.FILE_ID_UUID',
      'PORTAL.ATTACH.UPLOAD_UUID',
      'PORTAL.ATTACH.REGISTERS',
      'PORTAL.ATTACH.GETATTACHLIST',
      'PORTAL.ATTACH.LIST_SHAPE',
      'PORTAL.ATTACH.LISTED_AFTER_UPLOAD',
      'PORTAL.ATTACH.GETFILE',
      'PORTAL.ATTACH.DELETEATTACHMENT',
      'PORTAL.ATTACH.UNLISTED_AFTER_DELETE',
      'PORTAL.DISPATCH.SUBACTION',
      'PORTAL.DISPATCH.GET_AND_POST',
    ],
    'upload, list, download (byte-identical) and delete an attachment by the UUID doupload returns',
    [fc.constantFrom(...OWN_REGISTERS), fileName, fc.uint8Array({ minLength: 1, maxLength: 4096 })],
    async (ctx, regname, filename, bytes) => {
      const id = await recordOf(ctx, regname);
      if (id === '') return; // no record of this register to attach to: no verdict
      const content = Buffer.from(bytes);
      const up = await attempt(ctx.client.portal.doupload({ regname, id }, { filename, content }));
      const uploaded = expectSuccess(up, 'PORTAL.ATTACH.REGISTERS', `doupload regname=${regname}&id=${id} ${filename}`);
      await assertPortalXml(ctx, uploaded.raw.text, 'portal-upload-result', 'PORTAL.ATTACH.UPLOAD_RESULT');
      const uuid = uploaded.uuid ?? '';
      expectRule(UUID.test(uuid), 'PORTAL.ATTACH.FILE_ID_UUID', () => `doupload answered uuid ${show(uploaded.uuid)}`);

      const listed = expectSuccess(
        await attempt(ctx.client.portal.getattachlist({ regname, id })),
        'PORTAL.ATTACH.GETATTACHLIST',
        `getattachlist regname=${regname}&id=${id}`,
      );
      await assertPortalXml(ctx, listed.raw.text, 'portal-attachments', 'PORTAL.ATTACH.LIST_SHAPE');
      for (const a of listed.attachments) {
        expectRule(UUID.test(a.uuid ?? ''), 'PORTAL.ATTACH.FILE_ID_UUID', () => `attachment uuid ${show(a.uuid)}`);
        // "size is a number" (§2 Result element shapes): a non-negative number, not necessarily whole
        expectRule(
          /^\d+(\.\d+)?$/.test(a.size ?? ''),
          'PORTAL.ATTACH.LIST_SHAPE',
          () => `attachment size ${show(a.size)}`,
        );
        expectRule(DATE.test(a.date ?? ''), 'PORTAL.ATTACH.LIST_SHAPE', () => `attachment date ${show(a.date)}`);
      }
      const entry = listed.attachments.find((a) => a.uuid === uuid);
      expectRule(
        entry !== undefined && entry.filename === filename,
        'PORTAL.ATTACH.LISTED_AFTER_UPLOAD',
        () => `getattachlist after uploading ${filename} as ${uuid} lists ${show(listed.attachments)}`,
      );
      if (entry.size !== String(content.length))
        ctx.advise(
          `attachment size ${entry.size} for a file of ${content.length} bytes (what size counts is not stated)`,
        );

      const got = await downloadFile(ctx, regname, id, uuid);
      // a refusal in the documented error shape: getfile of a file this register's record holds is not served
      // (the register list, as doupload's refusal above), not a file of other bytes
      const refusal = getfileRefusal(got, content);
      expectRule(
        refusal === undefined,
        'PORTAL.ATTACH.REGISTERS',
        () =>
          `getfile regname=${regname}&id=${id}&file=${uuid} (listed after its upload) was refused: errstr ${show(refusal)}`,
      );
      expectRule(
        got.raw.status >= 200 && got.raw.status < 300,
        'PORTAL.ATTACH.GETFILE',
        () =>
          `getfile regname=${regname}&id=${id}&file=${uuid} answered HTTP ${got.raw.status}: ${show(got.raw.text, 200)}`,
      );
      const same = got.candidates.some((c) => Buffer.compare(c, content) === 0);
      // a documented failure answer (an <error>, a non-empty errstr) is getfile refusing a register the docs list for
      // it, not a uuid naming other bytes (issue 18: blamed on the rule that lists the register)
      if (!same && /<error\b|errstr="[^"]/.test(got.raw.text))
        expectRule(
          false,
          'PORTAL.ATTACH.REGISTERS',
          () => `getfile regname=${regname}&id=${id}&file=${uuid} was refused: ${show(got.raw.text, 200)}`,
        );
      expectRule(
        same,
        'PORTAL.ATTACH.UPLOAD_UUID',
        () =>
          `getfile ${uuid} answered ${got.raw.bytes.length} bytes that are not the ${content.length} uploaded, raw or as <file><base64> (first ${show(got.raw.bytes.subarray(0, 16).toString('hex'))} vs ${show(content.subarray(0, 16).toString('hex'))})`,
      );
      // the file POSTed to the doupload sub-action as base64 in XML came back byte-identical through GET sub-actions
      ctx.observe([
        'PORTAL.ATTACH.DOUPLOAD',
        'PORTAL.ATTACH.UPLOAD_BODY',
        'PORTAL.ATTACH.BASE64_IN_XML',
        'PORTAL.DISPATCH.SUBACTION',
        'PORTAL.DISPATCH.GET_AND_POST',
      ]);

      const del = await attempt(ctx.client.portal.deleteattachment({ regname, id, file: uuid }));
      const deleted = expectSuccess(del, 'PORTAL.ATTACH.DELETEATTACHMENT', `deleteattachment ${uuid}`);
      await assertPortalXml(ctx, deleted.raw.text, 'portal-result', 'PORTAL.ATTACH.DELETEATTACHMENT');
      const again = await attempt(ctx.client.portal.getattachlist({ regname, id }));
      const after = expectSuccess(again, 'PORTAL.ATTACH.GETATTACHLIST', `getattachlist after deleting ${uuid}`);
      expectRule(
        !after.attachments.some((a) => a.uuid === uuid),
        'PORTAL.ATTACH.UNLISTED_AFTER_DELETE',
        () => `getattachlist still lists ${uuid} after deleteattachment succeeded (${describeOutcome(del)})`,
      );
    },
    {
      numRuns: 8,
      writes: true,
      // each register once, in every run
      // (the gate profile without the VIVc and EPOrderDocVc members: each needs a record made for it, a setup the
      // gate's request budget leaves to the full profile)
      examples: (ctx) =>
        OWN_REGISTERS.slice(0, ctx.profile === 'gate' ? 4 : undefined).map(
          (r, i) => [r, `erpcert-${i}.txt`, new Uint8Array([104, 105, 10 + i])] as [OwnRegister, string, Uint8Array],
        ),
    },
  );
});
