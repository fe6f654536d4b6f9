import { ErpError, ErrorCode } from '../errors.js';

/** Something that knows which companies exist (the store). */
export interface CompanyDirectory {
  hasCompany(code: number): boolean;
}

const company = (description: string, status = 400, field = 'compcode') =>
  new ErpError(status, ErrorCode.company, description, { field });

/**
 * The company of a request. The docs call `/api/1/` the version and give `compcode` a location that
 * is "not shown" (record-rest-api.md §4 rule 8); real deployments put the company in the path
 * (DESIGN.md). So: path segment 1 with a `compcode` -> compcode; another path segment and a
 * disagreeing compcode -> refused (400); neither -> company 1. A compcode that is not a number from 1 is 400;
 * an unknown company (however many digits) is 404.
 *
 * @param pathSegment the number after `/api/` (or undefined where the path has none, e.g. the portal)
 * @param compcode the `compcode` query values
 */
export function resolveCompany(
  directory: CompanyDirectory,
  pathSegment: string | undefined,
  compcode: readonly string[],
  parameterName = 'compcode',
): number {
  const distinct = [...new Set(compcode)];
  if (distinct.length > 1)
    throw company(`${parameterName} is given with different values: ${distinct.join(', ')}`, 400, parameterName);
  const query = distinct[0];
  if (query !== undefined && !/^[1-9]\d*$/.test(query))
    throw company(`${parameterName} must be a company number from 1, got "${query}"`, 400, parameterName);
  // a well-formed number longer than any company code names no company: 404, like company 7
  if (query !== undefined && query.length > 9) throw company(`company ${query} does not exist`, 404, parameterName);
  let code: number;
  if (pathSegment === undefined || pathSegment === '1') code = query === undefined ? 1 : Number(query);
  else {
    const path = Number(pathSegment);
    if (query !== undefined && Number(query) !== path)
      throw company(
        `the path names company ${pathSegment} but ${parameterName} says ${query}; send one or make them agree`,
        400,
        parameterName,
      );
    code = path;
  }
  if (!directory.hasCompany(code)) throw company(`company ${code} does not exist`, 404, parameterName);
  return code;
}
