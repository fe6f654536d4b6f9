/**
 * The parameter, filter, limit and cap rules of specs/rules.yaml (kinds limit and semantic, and the shape rules
 * that name a parameter), each with the case that separates a right server from a wrong one: an observation of
 * one of these counts towards a PASS only where the check states that it reached that case (observations.ts
 * `observe(rule, n, { decisive })`, violation.ts `expectRule(..., { decisive })`). An observation of theirs that
 * states nothing is indecisive, so a check added later cannot make a PASS out of data a wrong server answers
 * alike. The text is what the SKIP reason names as missing ("no observation reached the case that tells right
 * from wrong: <case>"). Held to the catalogue by decisive-cases.test.ts.
 */
export const DECISIVE_CASES: Readonly<Record<string, string>> = {
  // record-rest-api.md §4 "Query parameters"
  'REST.QUERY.FIELDS': 'a record holding fields that the fields list leaves out',
  'REST.QUERY.SORT_ASCENDING': 'an answer holding two records whose sort field differs',
  'REST.QUERY.RANGE_REQUIRES_SORT': 'a register read whose range, applied, would leave a record out',
  'REST.QUERY.RANGE_FROM_TO': 'records inside the range and records outside it',
  'REST.QUERY.RANGE_FROM_OPEN': 'records from the bound onwards and records before it',
  'REST.QUERY.RANGE_EXACT': 'records equal to the value and records that are not',
  'REST.QUERY.LIMIT': 'a register holding more records than the limit sent',
  'REST.QUERY.OFFSET': 'an offset above 0 on a register holding more records than the offset',
  'REST.QUERY.OFFSET_LIMIT_PAGING': 'a register holding more records than one page',
  'REST.QUERY.FILTER_EXACT': 'records with the filtered value and records without it',
  'REST.QUERY.FILTER_AND': 'records that match one of the filters and not the other',
  'REST.QUERY.COMBINABLE': 'a combination whose parameters each leave a record out',
  'REST.SEQ.UPDATES_AFTER': 'records changed before the sequence number and records changed after it',
  'REST.SEQ.DELETES_AFTER': 'a record deleted after the sequence number',
  'REST.SEQ.HEADER_FEEDS_UPDATES_AFTER': 'records changed before the Sequence header and records changed after it',
  // portal-action-api.md §2 "Field-trigger request body"
  'PORTAL.TRIGGER.ROWINDEX':
    'a row field trigger (rowindex 0) answered otherwise than the same trigger with rowindex -1 (a header field)',
  // portal-action-api.md §1 "Global parameters"
  'PORTAL.GLOBAL.COMPNO': 'two companies whose data differ',
  // §4 operation rules 1, 2 and §8 (pastespecial)
  'PORTAL.LOOKUP.ID_IS_SEARCH': 'a search parameter whose text would find other results than the id',
  'PORTAL.LOOKUP.TERMS_AND': 'records that match one of the terms and not the other',
  'PORTAL.LOOKUP.PREFIX_CASE_INSENSITIVE':
    'a term in another case than the record, or records that hold it not as a prefix',
  'PORTAL.LOOKUP.CAP50': 'a search matching more than 50 records',
  'PORTAL.LIMITS.LOOKUP_NO_PAGINATION': 'a search matching more than 50 records',
  'PORTAL.LOOKUP.SEARCH_FIELDS_INVC': 'a record found by one searched field only',
  'PORTAL.LOOKUP.SEARCH_FIELDS_CONTACTS': 'a record found by one searched field only',
  'PORTAL.LOOKUP.SEARCH_FIELDS_USERVC': 'a record found by one searched field only',
  'PORTAL.LOOKUP.VEVC_VENDORS_ONLY': 'a contact that is not a vendor and matches the search',
  'PORTAL.LOOKUP.ALLCUVC_ALL_CONTACTS': 'matching contacts that are not customers (or not vendors)',
  // §4 operation rule 8 and §8 (list queries)
  'PORTAL.LIST.PERPAGE_1_100': 'a list holding more records than the perpage sent',
  'PORTAL.LIMITS.PAGE_SIZE': 'a list holding more records than the perpage sent',
  'PORTAL.LIST.ORDER': 'a list holding two records whose sort key differs',
  'PORTAL.LIST.SEARCH_ARVC': 'records found by the searched field and records that are not',
  'PORTAL.LIST.SEARCH_APVC': 'records found by the searched field and records that are not',
  'PORTAL.LIST.KANBAN_PARAMS':
    'a Kanban board that a smaller maxsize answers with fewer cards (a column holding more cards than maxsize)',
};
