/**
 * A saved target whose runs are certified keeps the name and URL it was certified under (issue 26: a certified run
 * is frozen); its connection still changes, and a target without certified runs is renamed and moved freely.
 */
import { parseTargetGuard } from '@erpcert/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reviewSignature } from '../certification/review-signature.js';
import {
  type CertificationFixture,
  HOSTILE_NAME,
  seedCertification,
  VENDOR_URL,
} from '../testing/certification-fixture.js';
import { freshStore, type TestStore, testDialects } from '../testing/test-databases.js';
import { testResolver } from '../testing/test-resolver.js';
import { SavedTargets, TargetInputError } from './saved-targets.js';
import { SecretBox } from './secret-box.js';

describe.each(testDialects)('saved targets of certified runs on %s', (dialect) => {
  let t: TestStore;
  let f: CertificationFixture;
  let targets: SavedTargets;
  beforeEach(async () => {
    t = await freshStore(dialect);
    f = await seedCertification(t.store);
    targets = new SavedTargets(
      t.store.db,
      new SecretBox('saved-targets-secret-0123456789ab'),
      undefined,
      parseTargetGuard(undefined, testResolver()),
    );
  });
  afterEach(async () => t.dispose());

  const certify = async () => {
    const s = await f.certification.submit(f.signed, 'certbody', 'user:1 vendor');
    await f.certification.decide(s.id, 'certified', 'ok', 'user:2 cert', await reviewSignature(t.store, f.signed));
  };
  const refusal = (act: () => Promise<unknown>) =>
    act().then(
      () => undefined,
      (e: unknown) => e,
    );
  const nameOf = async (id: number) => (await t.store.target(id))?.name;

  it('refuses to rename or move a target with a certified run, 409 saying why, and changes nothing', async () => {
    await certify();
    const id = f.signed.targetId;
    // saving the target known from its runs takes its row: with another name, that is a rename
    const renamedBySave = await refusal(() => targets.save({ url: VENDOR_URL, name: 'Another name' }, f.vendor));
    expect(renamedBySave instanceof TargetInputError && renamedBySave.status).toBe(409);
    expect((renamedBySave as Error).message).toBe(
      `target #${id} has certified runs (#${f.signed.id}): a certified run is frozen, so its target cannot be renamed; save a new target for another url`,
    );
    expect(await nameOf(id)).toBe(HOSTILE_NAME);
    // saved without a new name, its connection is kept
    const saved = await targets.save({ url: VENDOR_URL, user: 'ci' }, f.vendor);
    expect([saved.id, saved.name, saved.user]).toEqual([id, HOSTILE_NAME, 'ci']);

    const attempts: [string, Parameters<SavedTargets['update']>[1], RegExp][] = [
      ['rename', { name: 'Renamed' }, /cannot be renamed;/],
      ['move', { url: 'https://moved.vendor.example' }, /cannot be moved to another url;/],
      ['both', { name: 'Renamed', url: 'https://moved.vendor.example' }, /cannot be renamed or moved to another url;/],
    ];
    for (const [name, change, message] of attempts) {
      const err = await refusal(() => targets.update(id, change));
      expect([name, err instanceof TargetInputError && err.status]).toEqual([name, 409]);
      expect((err as Error).message).toMatch(message);
    }
    const after = await targets.getOrThrow(id);
    expect([after.name, after.url]).toEqual([HOSTILE_NAME, VENDOR_URL]);
    // the same name and url, sent again by a form with a new connection: no rename, taken
    const updated = await targets.update(id, {
      name: HOSTILE_NAME,
      url: `${VENDOR_URL}/`,
      user: 'release',
      compcode: 2,
    });
    expect([updated.name, updated.url, updated.user, updated.compcode]).toEqual([
      HOSTILE_NAME,
      VENDOR_URL,
      'release',
      2,
    ]);
  });

  it('renames and moves a target whose runs are not certified', async () => {
    const id = (await targets.save({ url: VENDOR_URL, name: 'Before' }, f.vendor)).id;
    expect(id).toBe(f.signed.targetId);
    const moved = await targets.update(id, { name: 'After', url: 'https://moved.vendor.example' });
    expect([moved.name, moved.url]).toEqual(['After', 'https://moved.vendor.example']);
  });
});
