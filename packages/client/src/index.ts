/**
 * @erpcert/client: a typed HTTP client for the record REST API and the portal action API (docs/), built on the
 * generated types of @erpcert/contract. Start with {@link createClient}.
 */

export { Authenticator, basicHeader, SESSION_COOKIE, sessionFromSetCookie } from './auth.js';
export { type BodyFormat, BodySyntaxError, type DecodedBody, decodeBody, sniffFormat } from './body-decode.js';
export { type ContentType, type DecodedText, decodeText, parseContentType } from './charset.js';
export { createClient, ErpClient, type RawRequest, RestApi } from './client.js';
export { type Clock, systemClock } from './clock.js';
export {
  type AuthConfig,
  type AuthOverride,
  type BasicAuth,
  type BearerAuth,
  type ClientConfig,
  type CompanyPlacement,
  DEFAULT_PORTAL_PATH,
  DEFAULT_TIMEOUT_MS,
  type OAuthAuth,
  type OAuthClientCredentials,
} from './config.js';
export { CURL_ENV, toCurl } from './curl.js';
export {
  ConfigError,
  DecodeError,
  ErpClientError,
  type ErpClientErrorKind,
  ErpError,
  type ErpErrorDetail,
  type ErpErrorSource,
  type ErpMessage,
  type ErrorContext,
  HttpStatusError,
  isErpClientError,
  TransportError,
  type TransportFailure,
} from './errors.js';
export type {
  Exchange,
  ExchangeBody,
  ExchangeHeader,
  ExchangeObserver,
  ExchangeRequest,
  ExchangeResponse,
  ExchangeThrottle,
} from './exchange.js';
export { headerValue } from './exchange.js';
export { type Har, type HarEntry, HarRecorder, harEntry, toHar, writeHar } from './har.js';
export type { CallOptions, RawResponse } from './http-core.js';
export {
  MASK,
  Masker,
  MIN_SECRET_LENGTH,
  maskHeaderValue,
  maskJson,
  maskPairs,
  maskUrl,
  maskXml,
  SECRET_NAME,
} from './mask.js';
export { OAuthTokenSource } from './oauth.js';
export { Pacer, type PacingOptions } from './pacer.js';
export { pinnedConnectGuard } from './pinned-connect.js';
export {
  type ActiveEditFieldsRequest,
  activeEditFieldsBody,
  decryptTriggerText,
  encryptTriggerText,
  type FieldTriggerRequest,
  fieldTriggerBody,
  postTextBody,
  type ReportRequest,
  reportBody,
  textBody,
  uploadBody,
} from './portal-bodies.js';
export { PortalClient, type UploadFile } from './portal-client.js';
export { PortalCore, type PortalPageOptions } from './portal-core.js';
export { decodePortal, type PortalDecodeContext } from './portal-decode.js';
export {
  isPortalOperationId,
  PORTAL_OPERATIONS,
  type PortalListRegister,
  type PortalOperationDef,
  type PortalOperationId,
  type PortalResultKind,
} from './portal-operations.js';
export { PortalSubActions } from './portal-sub-actions.js';
export type * from './portal-types.js';
export { type RestCallOptions, RestClient, type RestRootResult } from './rest-client.js';
export { envelopeParts, xmlRecordToJson } from './rest-envelope.js';
export {
  type FeedEvent,
  type FeedOptions,
  type PageOptions,
  restFeed,
  restPages,
  restRecords,
} from './rest-iterators.js';
export { companyQuery, formBody, keyParts, listQueryPairs, type RecordKey, restPath } from './rest-request.js';
export type * from './rest-types.js';
export {
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_WAIT_MS,
  decideThrottle,
  type RetryAfterOptions,
  retryAfterMs,
  THROTTLE_STATUSES,
  type ThrottleDecision,
} from './retry-after.js';
export { shellQuote } from './shell-quote.js';
export { CONNECT_REFUSED_BY_GUARD, type ConnectGuard } from './transport.js';
export { encodeQuery, encodeQueryComponent, type QueryPair } from './url.js';
export { erpcertVersion } from './version.js';
export {
  asElement,
  asList,
  attributesOf,
  parseXmlBody,
  type XmlElement,
  XmlSyntaxError,
  type XmlValue,
} from './xml-decode.js';
