import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLedger } from '../runner/ledger.js';
import { ledgerPermanent, type PermanentWrites, permanentWriteSkip } from './permanent-writes.js';

const LEAVES = 'a callback registration (registerapi)';

describe('permanentWriteSkip: embedded, opted in, or neither', () => {
  it.each<[PermanentWrites, 'full' | 'strict']>([
    ['embedded', 'full'],
    ['embedded', 'strict'],
    ['allowed', 'full'],
    ['allowed', 'strict'],
  ])('%s, %s profile: runs', (permanent, profile) => {
    expect(permanentWriteSkip(profile, permanent, LEAVES)).toBeUndefined();
  });

  it.each<['full' | 'strict']>([['full'], ['strict']])(
    'neither embedded nor opted in, %s profile: SKIPs, says what stays and how to opt in',
    (profile) => {
      const reason = permanentWriteSkip(profile, 'refused', LEAVES);
      expect(reason).toContain(`would leave ${LEAVES} on the target`);
      expect(reason).toContain('the documented API cannot remove');
      expect(reason).toContain('--allow-permanent-writes');
      expect(reason).toContain('ERPCERT_ALLOW_PERMANENT_WRITES');
    },
  );

  it.each<[PermanentWrites]>([['embedded'], ['allowed'], ['refused']])(
    'readonly profile with %s: SKIPs as a write',
    (permanent) => {
      expect(permanentWriteSkip('readonly', permanent, LEAVES)).toBe(
        `readonly profile: this test writes, and leaves ${LEAVES}`,
      );
    },
  );
});

describe('ledgerPermanent', () => {
  const folder = mkdtempSync(join(tmpdir(), 'erpcert-permanent-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const ctx = (permanentWrites: PermanentWrites, ledger: string) => ({
    name: '[PORTAL.EVENTS.REGISTERAPI] registerapi',
    target: { ledger, compcode: 3, permanentWrites },
  });

  it('on a target that stays, records the entry as permanent with the reason', () => {
    const ledger = join(folder, 'allowed.jsonl');
    ledgerPermanent(ctx('allowed', ledger), 'registerapi', 'u-1', 'no removal documented');
    expect(readLedger(ledger).entries).toEqual([
      {
        register: 'registerapi',
        key: 'u-1',
        company: 3,
        test: '[PORTAL.EVENTS.REGISTERAPI] registerapi',
        at: expect.any(String),
        permanent: 'no removal documented',
      },
    ]);
  });

  it('on the embedded server, records nothing: it goes with the run', () => {
    const ledger = join(folder, 'embedded.jsonl');
    ledgerPermanent(ctx('embedded', ledger), 'registerapi', 'u-1', 'no removal documented');
    expect(readLedger(ledger).entries).toEqual([]);
  });
});
