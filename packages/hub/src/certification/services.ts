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
import type { RunSummary } from '../store/run-summary.js';
import { Certification } from './certification-store.js';
import { RunChanges } from './run-changes.js';
import { type ShareLink, ShareLinks } from './share-links.js';

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
  /**
   * Makes a share link of `run` for the request's actor and records it in the audit log (the API and the page alike);
   * the secret is for this answer only.
   */
  share(c: Context, run: RunSummary, days: number): Promise<{ link: ShareLink; secret: string }>;
}

export function certificationServices(
  store: HubStore,
  o: { readonly now?: () => Date; readonly audit?: AuditLog; readonly trustProxy?: boolean } = {},
): CertificationServices {
  const now = o.now ?? (() => new Date());
  const log = o.audit ?? new Audit(store.db, now);
  const shares = new ShareLinks(store.db, now);
  const audit: CertificationServices['audit'] = (c, organisationId, action, subject, detail) =>
    log.record({
      actor: actorOf(c),
      organisationId,
      action,
      subject,
      detail,
      address: clientAddress(c, o.trustProxy ?? false),
    });
  return {
    store,
    certification: new Certification(store.db, now),
    shares,
    changes: new RunChanges(store.db),
    now,
    audit,
    label: actorLabel,
    async share(c, run, days) {
      const made = await shares.create({
        runId: run.id,
        organisationId: run.organisationId,
        days,
        createdBy: actorLabel(actorOf(c)),
      });
      await audit(c, run.organisationId, 'share', `run ${run.id}`, {
        link: made.link.id,
        expiresAt: made.link.expiresAt,
      });
      return made;
    },
  };
}
