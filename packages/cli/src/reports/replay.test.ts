import { describe, expect, it } from 'vitest';
import { conformCommand, curlLine, replayCommand } from './replay.js';

describe('replayCommand', () => {
  it.each([
    [{}, ['REST.QUERY.FILTER_AND'], 42, '3:1', 'erpcert conform --only REST.QUERY.FILTER_AND --seed 42 --path 3:1'],
    [{}, ['A.B.C', 'A.B.D'], null, null, 'erpcert conform --only A.B.C,A.B.D'],
    [
      {
        target: 'https://erp.example.com',
        user: 'ci bot',
        compcode: 3,
        profile: 'readonly',
        portalPath: '/WebExcellentAPI.hal',
      },
      ['PORTAL.LOOKUP.CAP50'],
      -7,
      '',
      "erpcert conform --target https://erp.example.com --user 'ci bot' --compcode 3 --portal-path /WebExcellentAPI.hal --profile readonly --only PORTAL.LOOKUP.CAP50 --seed -7",
    ],
    [
      { profile: 'full', companyIn: 'query', portalPath: '/WebErpAPI.hal', runs: 5 },
      ['X.Y.Z'],
      1,
      '0',
      'erpcert conform --runs 5 --only X.Y.Z --seed 1 --path 0',
    ],
    [
      { target: 'http://h:1', allowPermanentWrites: true },
      ['PORTAL.EVENTS.REGISTERAPI'],
      null,
      null,
      'erpcert conform --target http://h:1 --allow-permanent-writes --only PORTAL.EVENTS.REGISTERAPI',
    ],
    [{ allowPermanentWrites: false }, ['X.Y.Z'], null, null, 'erpcert conform --only X.Y.Z'],
  ])('%j %j', (base, rules, seed, path, want) => {
    expect(replayCommand(base, rules, seed, path)).toBe(want);
  });

  it('never carries a password, whatever the base holds', () => {
    const base = { user: 'u', password: 'hunter2' } as Parameters<typeof conformCommand>[0];
    expect(conformCommand(base)).toBe('erpcert conform --user u');
  });
});

describe('curlLine', () => {
  it('turns masked Basic credentials into environment variables and keeps the other headers', () => {
    const line = curlLine({
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:8080/api/1/IVVc?compcode=1',
        headers: {
          Authorization: 'Basic ***',
          'Content-Type': 'application/x-www-form-urlencoded',
          'Content-Length': '20',
        },
        body: "set_field.CustCode=O'Neil",
      },
    });
    expect(line).toBe(
      `curl -sS -i -X POST 'http://127.0.0.1:8080/api/1/IVVc?compcode=1' -u "$ERPCERT_USER:$ERPCERT_PASSWORD" ` +
        `-H 'Content-Type: application/x-www-form-urlencoded' --data-binary 'set_field.CustCode=O'\\''Neil'`,
    );
  });

  it('a GET with a session cookie only: credentials from the environment, the cookie left out', () => {
    const line = curlLine({
      request: { method: 'GET', url: 'http://h/WebErpAPI.hal?action=login', headers: { cookie: 'HSESSION=***' } },
    });
    expect(line).toBe(`curl -sS -i 'http://h/WebErpAPI.hal?action=login' -u "$ERPCERT_USER:$ERPCERT_PASSWORD"`);
  });

  it('a request without credentials stays without them', () => {
    expect(curlLine({ request: { method: 'GET', url: 'http://h/api/1/', headers: {} } })).toBe(
      'curl -sS -i http://h/api/1/',
    );
  });
});
