import { describe, expect, it } from 'vitest';
import { TargetConfigError, targetFromEnv } from './target.js';

const base = { ERPCERT_TARGET: 'http://127.0.0.1:9/', ERPCERT_RUN_TAG: 'ECAB12', ERPCERT_LEDGER: '/tmp/l.jsonl' };

describe('targetFromEnv', () => {
  it('reads every variable', () => {
    const t = targetFromEnv({
      ...base,
      ERPCERT_USER: 'u',
      ERPCERT_PASSWORD: 'p',
      ERPCERT_COMPCODE: '2',
      ERPCERT_OTHER_COMPCODE: '3',
      ERPCERT_USERCODE: 'ANN',
      ERPCERT_PORTALCC: 'est',
      ERPCERT_PORTAL_PATH: '/WebExcellentAPI.hal',
      ERPCERT_COMPANY_IN: 'path',
      ERPCERT_PROFILE: 'strict',
      ERPCERT_RUNS: '5',
      ERPCERT_SEED: '42',
      ERPCERT_PATH: '3:1',
      ERPCERT_PACE: '2.5',
      ERPCERT_FIXTURE_PREFIX: 'TEAMB-FX-',
      ERPCERT_PERMANENT_WRITES: 'allowed',
    });
    expect(t).toEqual({
      baseUrl: 'http://127.0.0.1:9',
      user: 'u',
      password: 'p',
      compcode: 2,
      otherCompcode: 3,
      usercode: 'ANN',
      portalcc: 'est',
      portalPath: '/WebExcellentAPI.hal',
      companyIn: 'path',
      profile: 'strict',
      runs: 5,
      seed: 42,
      path: '3:1',
      runTag: 'ECAB12',
      ledger: '/tmp/l.jsonl',
      pace: 2.5,
      fixturePrefix: 'TEAMB-FX-',
      permanentWrites: 'allowed',
    });
  });

  it('defaults: full profile, query placement, the documented portal path, a fresh tag and a temp ledger', () => {
    const t = targetFromEnv({ ERPCERT_TARGET: 'http://h:1' });
    expect(t).toMatchObject({
      profile: 'full',
      companyIn: 'query',
      portalPath: '/WebErpAPI.hal',
      fixturePrefix: 'ERPCERT-FX-',
      permanentWrites: 'refused',
    });
    expect(t.runTag).toMatch(/^EC[0-9A-Z]{4}$/);
    expect(t.ledger).toContain(`erpcert-ledger-${t.runTag}.jsonl`);
  });

  it.each([
    [{}, 'ERPCERT_TARGET is not set'],
    [{ ERPCERT_TARGET: 'not a url' }, 'not a URL'],
    [{ ...base, ERPCERT_PROFILE: 'lax' }, 'ERPCERT_PROFILE must be one of'],
    [{ ...base, ERPCERT_RUNS: '0' }, 'ERPCERT_RUNS must be a whole number >= 1'],
    [{ ...base, ERPCERT_PATH: '1:2' }, 'needs ERPCERT_SEED'],
    [{ ...base, ERPCERT_SEED: '1', ERPCERT_PATH: 'x' }, 'must look like 3:1:0'],
    [{ ...base, ERPCERT_PORTALCC: 'fin' }, 'est or lat'],
    [{ ...base, ERPCERT_PACE: '-1' }, 'positive number'],
    [
      { ...base, ERPCERT_PERMANENT_WRITES: 'yes' },
      'ERPCERT_PERMANENT_WRITES must be one of embedded, allowed, refused',
    ],
    [{ ...base, ERPCERT_RUN_TAG: 'lower' }, 'upper-case'],
    [{ ...base, ERPCERT_COMPCODE: '2', ERPCERT_OTHER_COMPCODE: '2' }, 'must name another company'],
    [{ ...base, ERPCERT_OTHER_COMPCODE: '0' }, 'ERPCERT_OTHER_COMPCODE must be a whole number >= 1'],
    [{ ...base, ERPCERT_FIXTURE_PREFIX: 'fx 1' }, 'ERPCERT_FIXTURE_PREFIX: a fixture prefix is 4 to 16'],
  ])('refuses %j', (env, message) => {
    expect(() => targetFromEnv(env)).toThrow(TargetConfigError);
    expect(() => targetFromEnv(env)).toThrow(message);
  });
});
