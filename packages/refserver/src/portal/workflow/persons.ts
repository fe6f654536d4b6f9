import type { RecordStore } from '../../store/record-store.js';
import { findUser } from '../access.js';
import { splitCodes } from './wf-context.js';

/** A list of persons after expansion: user codes in order, and the entries that named nobody. */
export interface ExpandedPersons {
  readonly codes: readonly string[];
  readonly unknown: readonly string[];
}

/** Open users (Closed not 1) of an access group, by code. */
export function usersOfGroup(store: RecordStore, company: number, group: string): string[] {
  return store.db
    .prepare(`SELECT Code FROM "reg_UserVc" WHERE _company = ? AND AccessGroup = ? AND Closed <> '1' ORDER BY Code`)
    .pluck()
    .all(company, group) as string[];
}

/**
 * Expands user groups to user codes (ActVc "MainPersons and CCPersons (expand user groups to user codes)",
 * portal-action-api.md §2). A user group is an access group (UserVc.AccessGroup). Each entry of the list:
 * a user code stays itself; `@GROUP` is always the group; a name that is no user but an access group with
 * open users becomes those users (by code). Duplicates are dropped; entries that name neither are reported.
 */
export function expandPersons(store: RecordStore, company: number, text: string): ExpandedPersons {
  const codes: string[] = [];
  const unknown: string[] = [];
  const add = (c: string) => {
    if (!codes.includes(c)) codes.push(c);
  };
  for (const entry of splitCodes(text)) {
    const group = entry.startsWith('@') ? entry.slice(1) : undefined;
    if (group === undefined && findUser(store, company, entry)) {
      add(entry);
      continue;
    }
    const members = usersOfGroup(store, company, group ?? entry);
    if (members.length > 0) members.forEach(add);
    else unknown.push(entry);
  }
  return { codes, unknown };
}
