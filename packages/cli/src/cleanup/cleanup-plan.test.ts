import { describe, expect, it } from 'vitest';
import { planFromLedger } from './cleanup-plan.js';

describe('planFromLedger', () => {
  it('keeps a permanent entry with its reason and never reads its register', () => {
    const asked: string[] = [];
    const why = 'the documented API cannot remove a callback registration (registerapi has no counterpart)';
    const plan = planFromLedger(
      [
        { register: 'registerapi', key: 'u-1', company: 1, permanent: why },
        { register: 'IVVc', key: '7', company: 1 },
      ],
      (register) => {
        asked.push(register);
        return [];
      },
      () => 'ECAB12',
    );
    expect(asked).toEqual(['IVVc']);
    expect(plan.residue).toEqual([{ register: 'registerapi', key: 'u-1', company: 1, status: 'kept', reason: why }]);
    expect(plan.alreadyGone).toEqual([{ register: 'IVVc', key: '7', company: 1 }]);
    expect(plan.act).toEqual([]);
  });
});
