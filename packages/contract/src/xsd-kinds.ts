/** Every XML body shape that has a schema in `specs/xsd/` (one file per kind, `<kind>.xsd`). */
export const xmlBodyKinds = [
  'rest-envelope',
  'rest-block',
  'portal-result',
  'portal-upload-result',
  'portal-conversion-result',
  'portal-hasusernewapi',
  'portal-login',
  'portal-approval',
  'portal-document',
  'portal-attachments',
  'portal-lookup',
  'portal-list',
  'portal-arap-list',
  'portal-upload-request',
  'open',
  'error-only',
] as const;

/**
 * The shape an XML body is validated against. `open` is any XML under `<data>` (bodies the docs mark "not
 * shown"); `error-only` is a body of `<error>`/`<message>` elements and nothing else.
 */
export type XmlBodyKind = (typeof xmlBodyKinds)[number];

/** How the validator treats one kind. */
export interface XmlBodyKindInfo {
  /** Schema file in `specs/xsd/`. */
  readonly schema: string;
  /** A response body: wrapped in the synthetic root `<erpcert-body>` (specs/xsd/README.md). */
  readonly response: boolean;
  /**
   * A portal success shape that a failure `<data><res errstr="text"/></data>` may replace
   * (portal-action-api.md §1, §7); the validator then accepts the body against `portal-result`.
   */
  readonly portalFailureMayReplace: boolean;
}

/** Kind metadata, by kind. */
export const xmlBodyKindInfo: Readonly<Record<XmlBodyKind, XmlBodyKindInfo>> = Object.freeze(
  Object.fromEntries(
    xmlBodyKinds.map((kind) => [
      kind,
      Object.freeze({
        schema: `${kind}.xsd`,
        response: kind !== 'portal-upload-request',
        portalFailureMayReplace:
          kind.startsWith('portal-') && kind !== 'portal-result' && kind !== 'portal-upload-request',
      }),
    ]),
  ) as Record<XmlBodyKind, XmlBodyKindInfo>,
);

/** True when `value` names a kind. */
export function isXmlBodyKind(value: string): value is XmlBodyKind {
  return (xmlBodyKinds as readonly string[]).includes(value);
}
