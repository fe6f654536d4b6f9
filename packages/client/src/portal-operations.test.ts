import { loadSpec } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import { PORTAL_OPERATIONS, type PortalResultKind } from './portal-operations.js';

interface SpecOperation {
  operationId: string;
  'x-erpcert-dispatch': Record<string, string>;
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string; anyOf?: { $ref: string }[] } }> }>;
}

// the success schema of an operation in the spec -> the client's result kind
const KIND_OF_SCHEMA: Record<string, PortalResultKind> = {
  PortalLoginResult: 'login',
  PortalOperationResult: 'result',
  PortalUploadResult: 'upload',
  PortalConversionResult: 'conversion',
  PortalHasApiResult: 'hasapi',
  PortalApprovalStatus: 'approval',
  PortalDocument: 'document',
  PortalAttachmentList: 'attachments',
  PortalLookupResult: 'lookup',
  PortalOpenData: 'open',
  PortalFieldTriggerResponse: 'trigger',
  PortalActiveEditFieldsResponse: 'activefields',
  PortalReportFilters: 'json',
};

function specOperations(): {
  id: string;
  method: string;
  dispatch: Record<string, string>;
  schema: string;
  json: boolean;
}[] {
  const doc = loadSpec('portal-action') as unknown as { paths: Record<string, Record<string, SpecOperation>> };
  return Object.values(doc.paths).flatMap((item) =>
    Object.entries(item)
      .filter(([, op]) => typeof op === 'object' && op !== null && 'operationId' in op)
      .map(([method, op]) => {
        const success = Object.entries(op.responses).find(([code]) => code.startsWith('2'))![1];
        const [type, media] = Object.entries(success.content ?? {})[0]!;
        const ref = media.schema.anyOf?.[0]?.$ref ?? media.schema.$ref ?? '';
        return {
          id: op.operationId,
          method: method.toUpperCase(),
          dispatch: op['x-erpcert-dispatch'],
          schema: ref.split('/').pop()!,
          json: type.includes('json'),
        };
      }),
  );
}

describe('PORTAL_OPERATIONS matches specs/portal-action.openapi.yaml', () => {
  const ops = specOperations();

  it('has exactly the operations of the spec', () => {
    expect(Object.keys(PORTAL_OPERATIONS).sort()).toEqual(ops.map((o) => o.id).sort());
  });

  it.each(ops)('$id: method, dispatch values and result shape', ({ id, method, dispatch, schema, json }) => {
    const def = PORTAL_OPERATIONS[id as keyof typeof PORTAL_OPERATIONS];
    expect(def.method).toBe(method);
    expect(def.dispatch).toEqual(dispatch);
    const want =
      id === 'action_getfile'
        ? 'file'
        : (KIND_OF_SCHEMA[schema] ?? (schema.startsWith('PortalList') ? 'list' : json ? 'json' : undefined));
    expect(def.result).toBe(want);
  });
});
