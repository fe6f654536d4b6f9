import { loadSpec, validateJsonBody } from '@erpcert/contract';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../app-types.js';
import { errstrOf, portal, resOf } from '../testing/portal-client.js';
import { PF } from '../testing/portal-fixture.js';
import { closeWorkflowApps, workflowApp } from '../workflow/testing/workflow-fixture.js';

afterEach(closeWorkflowApps);
const spec = loadSpec('portal-action');
const octet = { 'content-type': 'application/octet-stream' };
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');

async function fields(a: App, body: string) {
  const res = await portal(a, { action: 'activeeditfields' }, { method: 'POST', body, headers: octet });
  return JSON.parse(res.text);
}
async function ok(a: App, vcname: string, id: string) {
  const json = await fields(a, b64({ vcname, id }));
  expect(validateJsonBody(spec, 'PortalActiveEditFieldsResponse', json).errors).toEqual([]);
  return json;
}

describe('activeeditfields (rule 9)', () => {
  it('ORVc: editable without shipments; an invoice made from the order locks rows and CustCode; deleting it unlocks', async () => {
    const a = workflowApp();
    const open = { headerFields: true, matrixFields: true, exceptionHeaderList: '', exceptionMatrixList: '' };
    expect(await ok(a, 'ORVc', PF.draftOrder)).toEqual({ success: true, res: true, activeFields: open });
    const conv = await portal(a, {
      action: 'action',
      register: 'createslinvoicefromorder',
      id: PF.draftOrder,
      usercode: 'JD',
    });
    expect(errstrOf(conv.text)).toBe('');
    expect((await ok(a, 'ORVc', PF.draftOrder)).activeFields).toEqual({
      headerFields: true,
      matrixFields: false,
      exceptionHeaderList: 'CustCode',
      exceptionMatrixList: '',
    });
    const del = await portal(a, { action: 'delete', register: 'IVVc', id: resOf(conv.text).newdata! });
    expect(errstrOf(del.text)).toBe('');
    expect((await ok(a, 'ORVc', PF.draftOrder)).activeFields).toEqual(open);
  });

  it('CUVc: a rule from the customer class type; none without one', async () => {
    const a = workflowApp();
    a.store.insert('CCatVc', 1, { fields: { Code: 'EXP', ClassType: '2' }, rows: [] });
    a.store.insert('CUVc', 1, {
      fields: { Code: 'C6', Name: 'Export Oy', Classification: 'EXP', CUType: '1' },
      rows: [],
    });
    expect((await ok(a, 'CUVc', 'C6')).rules).toEqual([
      { rulefield: 'Classification', rulename: 'type', rulevalue: '2' },
    ]);
    // C1's class DOM has no ClassType in the fixture; C2 has no class
    expect((await ok(a, 'CUVc', 'C1')).rules).toEqual([]);
    expect((await ok(a, 'CUVc', 'C2')).rules).toEqual([]);
  });

  it('accepts plain JSON as well as base64', async () => {
    const json = await fields(workflowApp(), JSON.stringify({ vcname: 'CUVc', id: 'C1' }));
    expect(json.success).toBe(true);
  });

  it.each([
    ['an empty body', '', 'the active-edit-fields body is empty; send base64 of the JSON {vcname, id}'],
    [
      'a body that is no JSON',
      'bm90IGpzb24=',
      'the active-edit-fields body is not base64 of a JSON object {vcname, id}',
    ],
    ['no id', b64({ vcname: 'ORVc' }), 'missing required member "id" in the active-edit-fields body'],
    [
      'a register outside the table',
      b64({ vcname: 'IVVc', id: PF.draftInvoice }),
      'vcname "IVVc" is not allowed for activeeditfields; allowed: ORVc, CUVc',
    ],
    ['a missing record', b64({ vcname: 'ORVc', id: '1' }), 'ORVc 1 does not exist in company 1'],
  ])('refuses %s with the JSON failure', async (_n, body, message) => {
    expect(await fields(workflowApp(), body)).toEqual({
      success: false,
      res: false,
      messages: [{ description: message }],
    });
  });
});
