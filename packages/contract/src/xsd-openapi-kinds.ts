import { observed } from './observed.js';
import type { XmlBodyKind } from './xsd-kinds.js';

/** `<R>EnvelopeXml` of the settings blocks of specs/observed-fields.yaml: kind `rest-block`, not `rest-envelope`. */
const blockEnvelopes = new Set(observed.registers.filter((r) => r.block).map((r) => `${r.name}EnvelopeXml`));

/**
 * The XSD kind that describes the body of a named OpenAPI component schema; undefined when no XSD applies.
 * Shared by both agreement tests (`xsd-openapi.test.ts` renders from the schemas, `xsd-openapi-reverse.test.ts`
 * decodes the XSD fixtures into them); specs/xsd/README.md "Agreement with the OpenAPI specs".
 */
export function kindOfSchema(name: string): XmlBodyKind | undefined {
  if (blockEnvelopes.has(name)) return 'rest-block';
  if (/EnvelopeXml$/.test(name)) return 'rest-envelope';
  const fixed: Record<string, XmlBodyKind> = {
    ObservedErrorXml: 'error-only',
    ObservedMessageXml: 'error-only',
    PortalOperationResult: 'portal-result',
    PortalFailedResult: 'portal-result',
    // the XML failure of an operation whose success is JSON: `<error>` or `<data><res errstr="..."/></data>`
    PortalFailure: 'portal-result',
    PortalError: 'error-only',
    PortalMessageElement: 'error-only',
    PortalLoginResult: 'portal-login',
    PortalUploadResult: 'portal-upload-result',
    PortalConversionResult: 'portal-conversion-result',
    PortalHasApiResult: 'portal-hasusernewapi',
    PortalApprovalStatus: 'portal-approval',
    PortalDocument: 'portal-document',
    PortalAttachmentList: 'portal-attachments',
    PortalLookupResult: 'portal-lookup',
    PortalListARVc: 'portal-arap-list',
    PortalListAPVc: 'portal-arap-list',
    PortalOpenData: 'open',
    PortalUploadRequest: 'portal-upload-request',
  };
  return fixed[name] ?? (/^PortalList/.test(name) ? 'portal-list' : undefined);
}
