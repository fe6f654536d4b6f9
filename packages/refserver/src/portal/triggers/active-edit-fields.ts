import type { RecordStore } from '../../store/record-store.js';
import type { PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { checkOperationRegister } from '../operation-registers.js';
import { derivedFrom } from '../records/record-links.js';
import { loadRecord } from '../records/record-ref.js';

/**
 * The shipments of a sales order: the reference server has no delivery register, so an order ships when a
 * sales invoice is made from it (createslinvoicefromorder, the `derived` link ORVc -> IVVc that getrecordlinks
 * shows) and that invoice still exists. README "Active edit fields".
 */
export function orderShipments(store: RecordStore, company: number, orderId: string): string[] {
  return derivedFrom(store, company, 'ORVc', orderId)
    .filter(([reg, id]) => reg === 'IVVc' && store.get('IVVc', company, [id]) !== undefined)
    .map(([, id]) => id);
}

/** The `{vcname, id}` of the body: base64 of the JSON (§4 "Active edit fields"); plain JSON is accepted too. */
function decodeBody(body: Buffer): { vcname: string; id: string } {
  const raw = body.toString('utf8').trim();
  if (raw === '') throw new PortalError('the active-edit-fields body is empty; send base64 of the JSON {vcname, id}');
  let value: unknown;
  const tryParse = (text: string) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  };
  if (/^[A-Za-z0-9+/=\s]+$/.test(raw)) value = tryParse(Buffer.from(raw, 'base64').toString('utf8'));
  if (value === undefined && raw.startsWith('{')) value = tryParse(raw);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new PortalError('the active-edit-fields body is not base64 of a JSON object {vcname, id}');
  const v = value as Record<string, unknown>;
  const text = (x: unknown) => (typeof x === 'string' ? x : typeof x === 'number' ? String(x) : '');
  const vcname = text(v.vcname);
  const id = text(v.id);
  if (vcname === '') throw new PortalError('missing required member "vcname" in the active-edit-fields body');
  if (id === '') throw new PortalError('missing required member "id" in the active-edit-fields body');
  return { vcname, id };
}

/**
 * `action=activeeditfields` (POST, octet-stream base64 of `{vcname, id}`), portal-action-api.md §4 rule 9:
 * ORVc without shipments: headerFields and matrixFields true, exceptionHeaderList empty; with shipments:
 * matrixFields false and exceptionHeaderList `CustCode`. CUVc: `rules` from the contact's customer class type
 * (rulefield Classification, rulename type, rulevalue CCatVc.ClassType); none without a class or type.
 */
export const activeeditfields: PortalHandler = {
  kind: 'action',
  name: 'activeeditfields',
  json: true,
  methods: ['POST'],
  readsBody: true,
  handle(ctx) {
    const { vcname, id } = decodeBody(ctx.req.body);
    checkOperationRegister('activeeditfields', vcname, ctx.portalcc, 'vcname');
    const ref = loadRecord(ctx, vcname, id);
    if (vcname === 'ORVc') {
      const shipped = orderShipments(ctx.app.store, ctx.company, ref.id).length > 0;
      return {
        json: {
          success: true,
          res: true,
          activeFields: {
            headerFields: true,
            matrixFields: !shipped,
            exceptionHeaderList: shipped ? 'CustCode' : '',
            exceptionMatrixList: '',
          },
        },
      };
    }
    const cls = ctx.app.store.lookup('CCatVc', ctx.company, [ref.rec.fields.Classification ?? '']);
    const type = cls?.ClassType ?? '';
    return {
      json: {
        success: true,
        res: true,
        activeFields: { headerFields: true, matrixFields: true, exceptionHeaderList: '', exceptionMatrixList: '' },
        rules: type === '' ? [] : [{ rulefield: 'Classification', rulename: 'type', rulevalue: type }],
      },
    };
  },
};
