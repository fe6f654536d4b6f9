/**
 * The audit log's second wall: a value shaped like any secret the hub hands out (every prefix of secret-token.ts
 * SECRET_PREFIXES, share links' `ehr_` included) is redacted wherever it lands in an entry (actor, subject, a detail
 * value, a list in the detail), whatever key it sits under; text around it stays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShareLinks } from '../certification/share-links.js';
import { seedPageFixture } from '../testing/page-fixture.js';
import { freshStore, type TestStore } from '../testing/test-databases.js';
import { AuditLog } from './audit-log.js';
import { newSecret, SECRET_PREFIXES } from './secret-token.js';

describe("the audit log's scrubber", () => {
  let t: TestStore;
  let audit: AuditLog;
  beforeAll(async () => {
    t = await freshStore('sqlite');
    audit = new AuditLog(t.store.db);
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it.each(Object.entries(SECRET_PREFIXES))(
    'redacts a secret of kind %s (%s…) in the actor, subject and detail',
    async (kind, prefix) => {
      const secret = newSecret(prefix);
      expect(secret.startsWith(prefix)).toBe(true);
      await audit.record({
        actor: `token:9 named ${secret}`,
        organisationId: 1,
        action: 'relabel-run',
        subject: `run 1 ${secret}`,
        // keys that name no secret: only the value's shape can catch it
        detail: { build: `v1 ${secret} end`, label: secret, only: ['REST.A', secret] },
      });
      const [entry] = await audit.list(1, { limit: 1 });
      expect(entry, kind).toMatchObject({
        actor: 'token:9 named [redacted]',
        subject: 'run 1 [redacted]',
        detail: { build: 'v1 [redacted] end', label: '[redacted]', only: ['REST.A', '[redacted]'] },
      });
      expect((await audit.raw()).includes(secret), kind).toBe(false);
    },
  );

  it("redacts a share link's token as ShareLinks makes it", async () => {
    const { first } = await seedPageFixture(t.store);
    const { secret } = await new ShareLinks(t.store.db).create({
      runId: first,
      organisationId: 1,
      days: 1,
      createdBy: 'user:1 a@example.com',
    });
    await audit.record({ actor: 'anonymous', organisationId: 1, action: 'share', detail: { url: `/s/${secret}` } });
    const [entry] = await audit.list(1, { limit: 1 });
    expect(entry?.detail).toEqual({ url: '/s/[redacted]' });
  });

  it('keeps values that only resemble a prefix (too short to be a secret, another prefix)', async () => {
    await audit.record({
      actor: 'anonymous',
      organisationId: 1,
      action: 'relabel-run',
      detail: { label: 'ehr_short', build: 'ehx_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    });
    const [entry] = await audit.list(1, { limit: 1 });
    expect(entry?.detail).toEqual({ label: 'ehr_short', build: 'ehx_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
  });
});
