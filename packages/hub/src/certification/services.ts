/**
 * The certification parts over one store and one clock (tests inject theirs), and the audit log's one hook:
 * {@link CertificationServices.audit} records submitted, certified or rejected, shared and revoked, deleted and
 * relabelled runs through auth/audit-log.ts.
 */
import type { Context } from 'hono';
import type { Actor } from '../auth/actor.js';
import { actorLabel } from '../auth/actor.js';
import type { AuditAction, AuditDetail, AuditLog } from '../auth/audit-log.js';
import { AuditLog as Audit } from '../auth/audit-log.js';
import { actorOf, clientAddress } from '../auth/request-auth.js';
import type { HubStore } from '../store/hub-store.js';
import { Certification } from './certification-store.js';
import { RunChanges } from './run-changes.js';
import { ShareLinks } from './share-links.js';

export interface CertificationServices {
  readonly store: HubStore;
  readonly certification: Certification;
  readonly shares: ShareLinks;
  readonly changes: RunChanges;
  readonly now: () => Date;
  /** Records an entry of the audit log for the request's actor. */
  audit(c: Context, organisationId: number, action: AuditAction, subject: string, detail?: AuditDetail): Promise<void>;
  /** How an actor is named in a submission (never a secret). */
  label(actor: Actor): string;
}

export function certificationServices(
  store: HubStore,
  o: { readonly now?: () => Date; readonly audit?: AuditLog; readonly trustProxy?: boolean } = {},
): CertificationServices {
  const now = o.now ?? (() => new Date());
  const log = o.audit ?? new Audit(store.db, now);
  return {
    store,
    certification: new Certification(store.db, now),
    shares: new ShareLinks(store.db, now),
    changes: new RunChanges(store.db),
    now,
    audit: (c, organisationId, action, subject, detail) =>
      log.record({
        actor: actorOf(c),
        organisationId,
        action,
        subject,
        detail,
        address: clientAddress(c, o.trustProxy ?? false),
      }),
    label: actorLabel,
  };
}
