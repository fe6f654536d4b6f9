/**
 * The portal side of the harness: outcomes of portal calls, list-query helpers and tagged documents.
 * Portal property files import from here and from `./index.js`.
 */

export {
  type ActivitySnapshot,
  activitySnapshot,
  type NewActivity,
  newActivity,
  resAttribute,
} from './portal-activities.js';
export {
  createDocument,
  createDocumentAnswer,
  createPurchaseInvoice,
  type DocumentBasis,
  documentBasis,
  type RowSpec,
  readBySerNr,
  rowContents,
  taggedSpec,
} from './portal-data.js';
export { type DownloadedFile, downloadFile, getfileRefusal } from './portal-files.js';
export {
  FIRST_PAGE_QUERY,
  FIRST_PAGE_REGISTERS,
  type FirstPageRegister,
  firstPageIds,
} from './portal-first-pages.js';
export {
  currentSequence,
  hasField,
  isArAp,
  judgeQuiet,
  LIST_FIELDS,
  LIST_KEY,
  LIST_REGISTERS,
  type ListRegister,
  listIdentity,
  pagedBy,
  type QuietProblem,
  recordsOnPage,
  SEARCH_FIELDS,
  statedCount,
  textOf,
} from './portal-lists.js';
export {
  LOOKUP_FIELDS,
  LOOKUP_REGISTERS,
  type LookupRegister,
  loosePrefix,
  matchesAll,
  mayCover,
  mustCover,
  readLookupSource,
  type SourceRecord,
  searchedValues,
  searchFieldsRule,
  searchTerms,
  sourceRegister,
  strictPrefix,
} from './portal-lookup.js';
export {
  assertPortalXml,
  attempt,
  blameRefusedRegister,
  bodyText,
  dataChildNames,
  describeOutcome,
  expectErrorShape,
  expectSuccess,
  failureText,
  jsonBody,
  type Outcome,
  XSD_SAMPLES_PER_TEST,
  xmlTop,
} from './portal-outcome.js';
export { NO_RECORD, PORTAL_PROBES, type PortalProbe, sendProbe } from './portal-probes.js';
export { decimal, decimalText, near, TRIGGER_REGISTERS, type TriggerBody, trigger } from './portal-triggers.js';
