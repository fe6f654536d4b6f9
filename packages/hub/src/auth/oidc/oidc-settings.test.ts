import { describe, expect, it } from 'vitest';
import { OIDC_SECRET_ENV, type OidcSettingsInput, oidcSettings } from './oidc-settings.js';

const SECRET = 'planted-secret-5c1e7a';
const good: OidcSettingsInput = {
  issuer: 'https://id.example.com/realms/erp',
  clientId: 'erpcert-hub',
  clientSecret: SECRET,
  redirectUri: 'https://hub.example.com/auth/oidc/callback',
};

describe('oidcSettings', () => {
  it('takes good settings, with the defaults', () => {
    const s = oidcSettings(good);
    expect(s.issuer.href).toBe('https://id.example.com/realms/erp');
    expect(s.scopes).toEqual(['openid', 'email', 'profile']);
    expect(s.groupsClaim).toBe('groups');
    expect(s.mapping).toEqual({ prefix: 'erpcert:', explicit: new Map(), adminGroup: 'erpcert:admin' });
    expect(s.insecureLoopback).toBe(false);
  });

  it('takes http:// on a loopback address only', () => {
    const s = oidcSettings({
      ...good,
      issuer: 'http://127.0.0.1:4000',
      redirectUri: 'http://localhost:8480/auth/oidc/callback',
    });
    expect(s.insecureLoopback).toBe(true);
  });

  it('takes an explicit map and other names', () => {
    const s = oidcSettings({
      ...good,
      scopes: 'openid groups',
      groupsClaim: 'roles',
      groupPrefix: '',
      adminGroup: 'hub-admins',
      groupMap: { 'erp-eng': 'acme:engineer' },
    });
    expect(s.scopes).toEqual(['openid', 'groups']);
    expect(s.mapping.explicit.get('erp-eng')).toEqual([{ organisation: 'acme', role: 'engineer' }]);
  });

  it.each<[string, OidcSettingsInput, RegExp]>([
    ['no issuer', { ...good, issuer: undefined }, /--oidc-issuer is required/],
    ['an issuer that is no URL', { ...good, issuer: 'id.example.com' }, /--oidc-issuer must be an absolute URL/],
    [
      'http:// elsewhere than loopback',
      { ...good, issuer: 'http://id.example.com' },
      /--oidc-issuer must be https:\/\//,
    ],
    ['another scheme', { ...good, issuer: 'ftp://id.example.com' }, /--oidc-issuer must be https:\/\//],
    ['an issuer with a query', { ...good, issuer: 'https://id.example.com/?x=1' }, /no query, no fragment/],
    [
      'an issuer with a password',
      { ...good, issuer: 'https://u:p@id.example.com/' },
      /must not carry a user or password/,
    ],
    ['no client id', { ...good, clientId: ' ' }, /--oidc-client-id is required/],
    ['no client secret', { ...good, clientSecret: '' }, new RegExp(`${OIDC_SECRET_ENV} must hold the client secret`)],
    ['no redirect URI', { ...good, redirectUri: undefined }, /--oidc-redirect-uri is required/],
    [
      'a redirect URI to another path',
      { ...good, redirectUri: 'https://hub.example.com/cb' },
      /followed by \/auth\/oidc\/callback/,
    ],
    ['scopes without openid', { ...good, scopes: 'email profile' }, /--oidc-scopes must include openid/],
    ['an empty groups claim', { ...good, groupsClaim: ' ' }, /--oidc-groups-claim must name a claim/],
    ['a bad group map', { ...good, groupMap: { g: 'acme' } }, /--oidc-group-map: group "g": "acme" is not/],
    ['no way to map a group', { ...good, groupPrefix: '', adminGroup: '' }, /no group gives access/],
  ])('refuses %s, never showing the secret', (_name, input, message) => {
    let thrown: unknown;
    try {
      oidcSettings(input);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).name).toBe('OidcSettingsError');
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).not.toContain(SECRET);
  });
});
