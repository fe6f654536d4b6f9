export type {
  components as PortalComponents,
  operations as PortalOperations,
  paths as PortalPaths,
} from '../generated/portal-action.js';
export type {
  components as RestComponents,
  operations as RestOperations,
  paths as RestPaths,
} from '../generated/record-rest.js';
export { decodeBase64Strict } from './base64-strict.js';
export {
  type AcceptBehaviour,
  type AcceptCondition,
  type BehaviourBase,
  type BehaviourCatalogue,
  BehaviourCatalogueError,
  behaviours,
  type ComputedBehaviour,
  type DecoyBehaviour,
  type FeedBehaviour,
  loadBehaviours,
  type ParameterBehaviour,
  specOperations,
  type TransitionBehaviour,
  type WriteBehaviour,
} from './behaviours.js';
export {
  BodyPathPatternError,
  blameOf,
  type CoverAspect,
  type CoverIndex,
  type CoveringRule,
  type CoverPattern,
  compareSpecificity,
  compileCoverPattern,
  coverIndex,
  type PathFailure,
  type PathOwners,
} from './body-paths.js';
export { isCalendarDate } from './calendar-date.js';
export {
  type DocumentedPath,
  documentedPaths,
  isDocumentedIn,
  pathsOfBody,
  requiredChildrenOf,
  responseBodySchemas,
} from './documented-paths.js';
export { escapeRegExp } from './escape-regexp.js';
export { JsonSchemaLookupError, type JsonValidationResult, validateJsonBody } from './json-schema.js';
export { markdownCell } from './markdown-cell.js';
export {
  type KnownRegister,
  loadObserved,
  type ObservedCatalogue,
  type ObservedFeed,
  type ObservedFieldError,
  type ObservedFields,
  ObservedFileError,
  type ObservedRecord,
  type ObservedRegister,
  observed,
  observedFieldsOf,
  parseRegistersFile,
} from './observed.js';
export {
  benchReportDir,
  contractPackageDir,
  docsDir,
  findContentRoots,
  folderStamp,
  inCheckout,
  repoRoot,
  specsDir,
} from './paths.js';
export { portalSuccessKind } from './portal-success-kind.js';
export { getRegister, loadRegisters, type RegisterDef, registers } from './registers.js';
export { buildRestSpec, restSpecDocument, type SpecNode, toYaml } from './rest-spec-build.js';
export {
  API_DOC,
  docAnchor,
  getRule,
  headingSlug,
  loadRules,
  matchRules,
  PASSABLE_BEHAVIOURS,
  parseRules,
  REST_OPERATIONS,
  RULE_DOCS,
  RULE_ID_PATTERN,
  RULE_KINDS,
  RULE_STANDINGS,
  type Rule,
  type RuleApi,
  RuleCatalogueError,
  type RuleDoc,
  RuleGlobError,
  type RuleId,
  type RuleKind,
  type RuleParamValue,
  type RuleStanding,
  ruleAreas,
  rules,
} from './rules.js';
export {
  blameJsonFailure,
  blameSchemaFailure,
  blameXmlFailure,
  type FailingPath,
  jsonFailingPaths,
  type RequiredChildren,
  xmlFailingPaths,
} from './schema-blame.js';
export {
  isContractFile,
  listSpecNames,
  loadSpec,
  NOT_CONTRACT_FILES,
  type OpenApiDocument,
  SpecError,
  type SpecName,
  specFile,
  validateDocument,
  validateSpec,
} from './specs.js';
export {
  ALLOW_TARGETS_SETTING,
  AllowTargetsError,
  canonicalAddress,
  embeddedIPv4,
  type GuardedLookup,
  parseTargetGuard,
  type Resolver,
  systemResolver,
  TARGET_REFUSED,
  type TargetGuard,
  TargetRefusedError,
} from './target-guard.js';
export {
  escapeXml,
  escapeXmlAttribute,
  escapeXmlContent,
  hasForbiddenXmlChar,
  replaceForbiddenXmlChars,
  unescapeXml,
} from './xml-escape.js';
export {
  closeXmlValidator,
  loadXsdFiles,
  validateXml,
  type XmlValidationResult,
  XsdSchemaError,
  xsdWrapperElement,
} from './xsd.js';
export { detectXmlBodyKind } from './xsd-detect.js';
export { isXmlBodyKind, type XmlBodyKind, type XmlBodyKindInfo, xmlBodyKindInfo, xmlBodyKinds } from './xsd-kinds.js';
export { XmllintRunnerError, type XsdFile } from './xsd-runner.js';
export {
  type YamlPath,
  type YamlSchemaCheck,
  type YamlSchemaProblem,
  yamlLineOf,
  yamlSchemaCheck,
} from './yaml-schema.js';
