/**
 * Mutants of the portal writes that issue 18 brought under test (portal-action-api.md §4 signing, activities,
 * registerapi, sendemail; §7 "Record is locked"; §2 field triggers): each takes one documented behaviour away.
 */
import { emptySuccess, refusal } from './mutants-portal.js';
import type { Mutant, ProxyResponse } from './proxy.js';
import { portalAction, queryOf } from './wire.js';

/** An answer with `<data>` but no `<res>`: not an operation result (§2 "Result element shapes"). */
function notAResult(): ProxyResponse {
  return {
    status: 200,
    headers: { 'content-type': 'application/xml; charset=utf-8' },
    body: Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<data><done>1</done></data>', 'utf8'),
  };
}

/** A sub-action whose every call is refused. */
function refusedAction(action: string, rule: string): Mutant {
  return {
    id: `${action}-refused`,
    description: `${action} is refused (the server lacks it)`,
    breaks: [rule],
    request: (req) => (portalAction(req) === action ? refusal(`${action} is not available`) : req),
  };
}

/** A sub-action that answers a success and does nothing. */
function doesNothing(action: string, rule: string, what: string): Mutant {
  return {
    id: `${action}-does-nothing`,
    description: `${action} answers errstr="" but ${what}`,
    breaks: [rule],
    request: (req) => (portalAction(req) === action ? emptySuccess() : req),
  };
}

/** The mutants of the portal writes. */
export function portalWriteMutants(): Mutant[] {
  return [
    doesNothing('linktosourcerecord', 'PORTAL.ACTIVITY.LINKTOSOURCERECORD', 'creates no activity'),
    refusedAction('addcomment', 'PORTAL.ACTIVITY.ADDCOMMENT'),
    refusedAction('settaskdescription', 'PORTAL.ACTIVITY.SETTASKDESCRIPTION'),
    refusedAction('registerapi', 'PORTAL.EVENTS.REGISTERAPI'),
    {
      id: 'registerapi-not-a-result',
      description: 'registerapi answers <data> without the <res> of an operation result',
      breaks: ['PORTAL.EVENTS.REGISTERAPI_REQUEST'],
      request: (req) => (portalAction(req) === 'registerapi' ? notAResult() : req),
    },
    {
      id: 'createsigningactivity-refuses-orvc',
      description: 'createsigningactivity refuses sales orders (ORVc), one of its documented registers',
      breaks: ['PORTAL.SIGN.REGISTERS'],
      request: (req) =>
        portalAction(req) === 'createsigningactivity' && queryOf(req).get('regname') === 'ORVc'
          ? refusal('ORVc cannot be signed')
          : req,
    },
    refusedAction('createsigningactivity', 'PORTAL.SIGN.CREATESIGNINGACTIVITY'),
    refusedAction('createsigningsess', 'PORTAL.SIGN.CREATESIGNINGSESS'),
    refusedAction('cancelsigning', 'PORTAL.SIGN.CANCELSIGNING'),
    doesNothing('startsigning', 'PORTAL.SIGN.STARTSIGNING', 'names no URL of the signing interface'),
    {
      id: 'signactivity-not-a-result',
      description: 'signactivity answers <data> without the <res> of an operation result',
      breaks: ['PORTAL.SIGN.SIGNACTIVITY'],
      request: (req) => (portalAction(req) === 'signactivity' ? notAResult() : req),
    },
  ];
}
