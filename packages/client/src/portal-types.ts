import type { PortalComponents, PortalOperations } from '@erpcert/contract';
import type { ErpMessage } from './errors.js';
import type { RawResponse } from './http-core.js';
import type { PORTAL_OPERATIONS, PortalListRegister, PortalOperationId } from './portal-operations.js';
import type { XmlElement, XmlValue } from './xml-decode.js';

type Schemas = PortalComponents['schemas'];

/** The same members, every value a string (the XML bodies carry text; the client parses no numbers). */
export type Stringly<T> = { readonly [K in keyof T]: string };

/** The global parameters (portal-action-api.md §1); `null` leaves out the configured default for this call. */
export interface PortalGlobals {
  readonly compno?: number | string | null;
  readonly usercode?: string | null;
  readonly portalcc?: 'est' | 'lat' | null;
}

type QueryOf<Op extends PortalOperationId> = NonNullable<PortalOperations[Op]['parameters']['query']>;
type DispatchKey<Op extends PortalOperationId> = keyof (typeof PORTAL_OPERATIONS)[Op]['dispatch'];

/** Parameters of an operation, from the generated types, without its dispatch values and with optional globals. */
export type PortalParams<Op extends PortalOperationId> = Omit<QueryOf<Op>, DispatchKey<Op> | keyof PortalGlobals> &
  PortalGlobals;

/** Query of a list (portal-action-api.md §4 "List query", rule 8). */
export type PortalListQuery<R extends string = string> = (R extends PortalListRegister
  ? PortalParams<`list_${R}`>
  : PortalParams<'list_Kanban'>) & { readonly [name: string]: string | number | null | undefined };

/** What every decoded portal answer carries. */
export interface PortalResponseBase {
  /** `<message>` elements or JSON messages: warnings, never thrown. */
  readonly messages: readonly ErpMessage[];
  readonly raw: RawResponse;
}

/** `<data><res errstr="..."/></data>`: `errstr` is empty (a non-empty one is thrown as `ErpError`). */
export interface PortalResult extends PortalResponseBase {
  readonly errstr: string;
  /** Every attribute of `<res>`, verbatim. */
  readonly attrs: Readonly<Record<string, string>>;
}

/** Upload result: `<res errstr="" uuid="..."/>` (operation rule 10). */
export interface PortalUploadResult extends PortalResult {
  readonly uuid: string | undefined;
}

/** Conversion result: `<res errstr="" newdata="<new SerNr>"/>`. */
export interface PortalConversionResult extends PortalResult {
  readonly newdata: string | undefined;
}

/** hasusernewapi result: `<res errstr="" hasapi="0/1"/>`. */
export interface PortalHasApiResult extends PortalResult {
  readonly hasapi: string | undefined;
}

/** Login result (§2): fields read from `<res>` attributes or child elements (which one is not shown). */
export interface PortalLogin extends PortalResult {
  readonly fields: Partial<Stringly<Omit<Schemas['PortalLoginRes'], 'supported' | 'errstr'>>>;
  /** Children of `<supported>` (activities, invoices, attachments, hassigning: 0 or 1). */
  readonly supported: Partial<Stringly<Schemas['PortalLoginSupported']>> & Readonly<Record<string, string>>;
  /** The HSESSION id the client holds after the login, when a session is open. */
  readonly sessionId: string | undefined;
}

/** Approval status (§2, §3 codes 0-5). */
export interface PortalApproval extends PortalResult {
  readonly regname: string | undefined;
  /** The `<DummyVc>` children, when present. */
  readonly status:
    | (Partial<Stringly<Schemas['PortalApprovalStatusRecord']>> & Readonly<Record<string, string>>)
    | undefined;
}

/** Document: `<file><name/><base64/></file>` with the decoded bytes. */
export interface PortalDocument extends PortalResponseBase {
  readonly name: string;
  readonly base64: string;
  readonly content: Buffer;
}

/** One `<attachment uuid filename size date/>`, attribute values verbatim. */
export type PortalAttachment = Partial<Stringly<Schemas['PortalAttachment']>> & Readonly<Record<string, string>>;

/** Attachment list. */
export interface PortalAttachmentList extends PortalResponseBase {
  readonly attachments: readonly PortalAttachment[];
}

/** A record element of a lookup or list: child elements by name (text), attributes as `@name`. */
export type PortalRecord = Readonly<Record<string, XmlValue>>;

/** A lookup record; INVc records carry Code, Name, UPrice1 (§2). */
export type PortalLookupRecord<R extends string> = (R extends 'INVc'
  ? Partial<Stringly<Schemas['PortalLookupINVc']>>
  : unknown) &
  PortalRecord;

/** Lookup result (`pastespecial`): at most 50 records named after the register. */
export interface PortalLookup<R extends string = string> extends PortalResponseBase {
  readonly register: string;
  readonly records: readonly PortalLookupRecord<R>[];
}

/** A list row; the documented fields for IVVc, ARVc and APVc (§2), open for the rest (rule 14). */
export type PortalListRow<R extends string> = (R extends 'IVVc'
  ? Partial<Stringly<Schemas['PortalListRowIVVc']>>
  : R extends 'ARVc'
    ? Partial<Stringly<Schemas['PortalListRowARVc']>>
    : R extends 'APVc'
      ? Partial<Stringly<Schemas['PortalListRowAPVc']>>
      : unknown) &
  PortalRecord;

/** A paged list: `<data count page perpage totalpages>` or, for ARVc/APVc, `<data page total>`. */
export interface PortalList<R extends string = string> extends PortalResponseBase {
  readonly register: string;
  /** The attributes of `<data>`, verbatim. */
  readonly attrs: Readonly<Record<string, string>>;
  /** Whole-number attributes of `<data>`, parsed; undefined when absent or not a whole number. */
  readonly count: number | undefined;
  readonly page: number | undefined;
  readonly perpage: number | undefined;
  readonly totalpages: number | undefined;
  readonly total: number | undefined;
  readonly records: readonly PortalListRow<R>[];
}

/** A body the docs do not show: the decoded `<data>` element (XML) or the parsed JSON. */
export interface PortalOpen extends PortalResponseBase {
  readonly data: XmlElement | undefined;
  readonly json?: unknown;
}

/** `getfile`: the file's bytes (the response shape is not shown: raw bytes or an XML `<file>` with base64). */
export interface PortalFile extends PortalResponseBase {
  readonly content: Buffer;
  readonly name: string | undefined;
  readonly contentType: string;
}

/** A JSON answer (windowactions, activeeditfields, report, getreportfilters). */
export interface PortalJson<T> extends PortalResponseBase {
  readonly body: T;
}

/** Field-trigger response (windowactions, §2). */
export type PortalTriggerResult = PortalJson<Schemas['PortalFieldTriggerResponse']>;
/** Active edit fields response (§2). */
export type PortalActiveFieldsResult = PortalJson<Schemas['PortalActiveEditFieldsResponse']>;

/** The decoded answer of each result kind. */
export interface PortalResultByKind {
  login: PortalLogin;
  result: PortalResult;
  upload: PortalUploadResult;
  conversion: PortalConversionResult;
  hasapi: PortalHasApiResult;
  approval: PortalApproval;
  document: PortalDocument;
  attachments: PortalAttachmentList;
  lookup: PortalLookup;
  list: PortalList;
  open: PortalOpen;
  file: PortalFile;
  trigger: PortalTriggerResult;
  activefields: PortalActiveFieldsResult;
  json: PortalJson<unknown>;
}

/** The decoded answer of an operation. */
export type PortalResultOf<Op extends PortalOperationId> = PortalResultByKind[(typeof PORTAL_OPERATIONS)[Op]['result']];

/** A request body as sent: its Content-Type and bytes. */
export interface PortalBody {
  readonly contentType: string;
  readonly data: string | Buffer;
}
