/**
 * Whether a list query reaches the case that separates a server that honours a parameter from one that ignores
 * it (issue 28 "Every PASS could have failed"): the model of the query with the parameter and without it differ.
 * A filter that every record passes, a limit above the register's size or an offset of 0 are answered alike by
 * both servers, so an agreement with the model there is no evidence for the parameter's rule.
 */
import { type Decisiveness, decisiveWhen } from './observations.js';
import { isAscending, matchesFilters, modelRecords, type QuerySpec } from './query-model.js';
import { type AnyRecord, fieldValue, identityOf, isMetaMember } from './records.js';

/** The parameters whose effect on one query can be told. */
export type QueryParameter = 'filter' | 'filterAnd' | 'sort' | 'range' | 'fields' | 'offset' | 'limit' | 'paging';

function ids(register: string, records: readonly AnyRecord[]): string {
  return records.map((r) => identityOf(register, r)).join('\u0000');
}

function page(spec: QuerySpec, model: readonly AnyRecord[]): AnyRecord[] {
  const offset = spec.offset ?? 0;
  return model.slice(offset, spec.limit === undefined ? undefined : offset + spec.limit);
}

/**
 * Whether `parameter` of `spec` changes the answer a right server gives, against the unfiltered read `all` and
 * the server's sorted read `sortedAll`: with `decisive: false`, what the data lacked.
 */
export function parameterSeparates(
  register: string,
  parameter: QueryParameter,
  spec: QuerySpec,
  all: readonly AnyRecord[],
  sortedAll: readonly AnyRecord[] | undefined,
): Decisiveness {
  const model = modelRecords(register, spec, all, sortedAll);
  const answer = page(spec, model);
  const without = (drop: Partial<Record<keyof QuerySpec, true>>): AnyRecord[] => {
    const rest = Object.fromEntries(Object.entries(spec).filter(([k]) => !drop[k as keyof QuerySpec])) as QuerySpec;
    return page(rest, modelRecords(register, rest, all, sortedAll));
  };
  switch (parameter) {
    case 'filter':
      return decisiveWhen(
        'REST.QUERY.FILTER_EXACT',
        ids(register, without({ filters: true })) !== ids(register, answer),
        `every record of ${register} passes the filters sent: a server ignoring them answers alike`,
      );
    case 'filterAnd': {
      const filters = spec.filters ?? [];
      const some = all.some((r) => filters.some(([f, v]) => fieldValue(r, f) === v) && !matchesFilters(r, filters));
      return decisiveWhen(
        'REST.QUERY.FILTER_AND',
        filters.length > 1 && some,
        `no record of ${register} matches one of the ${filters.length} filters and not another`,
      );
    }
    case 'sort': {
      const field = spec.sort ?? '';
      return decisiveWhen(
        'REST.QUERY.SORT_ASCENDING',
        !isAscending(all.map((r) => fieldValue(r, field))),
        `${register} read without sort is already in ascending ${field} order: a server ignoring sort answers alike`,
      );
    }
    case 'range':
      return decisiveWhen(
        'REST.QUERY.RANGE_FROM_TO',
        ids(register, without({ range: true })) !== ids(register, answer),
        `the range covers every record of ${register}: a server ignoring it answers alike`,
      );
    case 'fields': {
      const fields = spec.fields ?? [];
      return decisiveWhen(
        'REST.QUERY.FIELDS',
        answer.some((r) => Object.keys(r).some((k) => !isMetaMember(k) && !fields.includes(k))),
        `the records of ${register} hold no field beyond ${fields.join(',')}`,
      );
    }
    case 'offset':
      return decisiveWhen(
        'REST.QUERY.OFFSET',
        ids(register, without({ offset: true })) !== ids(register, answer),
        `offset=${spec.offset ?? 0} on ${model.length} record(s) skips nothing a server ignoring it would return`,
      );
    case 'limit':
      return decisiveWhen(
        'REST.QUERY.LIMIT',
        model.length - (spec.offset ?? 0) > (spec.limit ?? Number.POSITIVE_INFINITY),
        `${register} holds ${model.length} record(s), no more than offset ${spec.offset ?? 0} plus limit ${spec.limit}`,
      );
    case 'paging':
      return decisiveWhen(
        'REST.QUERY.OFFSET_LIMIT_PAGING',
        model.length > (spec.limit ?? Number.POSITIVE_INFINITY),
        `${register} holds ${model.length} record(s), no more than one page of ${spec.limit}`,
      );
  }
}

/**
 * Whether a combined query separates: at least two of its parameters each change the answer (a combination of
 * one effective parameter is that parameter alone).
 */
export function combinationSeparates(
  register: string,
  spec: QuerySpec,
  all: readonly AnyRecord[],
  sortedAll: readonly AnyRecord[] | undefined,
): Decisiveness {
  const effective = (['filter', 'range', 'fields', 'offset', 'limit'] as const).filter((p) => {
    if (p === 'filter' && !(spec.filters && spec.filters.length > 0)) return false;
    if (p !== 'filter' && spec[p] === undefined) return false;
    return parameterSeparates(register, p, spec, all, sortedAll).decisive;
  });
  if (spec.sort !== undefined && parameterSeparates(register, 'sort', spec, all, sortedAll).decisive)
    effective.push('sort' as never);
  return decisiveWhen(
    'REST.QUERY.COMBINABLE',
    effective.length >= 2,
    `only ${effective.length === 0 ? 'no parameter' : effective.join(', ')} of the combination changed what ${register} answers`,
  );
}
