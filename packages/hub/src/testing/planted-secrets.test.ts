import { describe, expect, it } from 'vitest';
import { findPlanted, plantSecrets } from './planted-secrets.js';

describe('findPlanted: the search a planted-secret test relies on finds every form it claims to', () => {
  const s = plantSecrets();
  const b64 = (t: string) => Buffer.from(t).toString('base64');
  it.each([
    ['as is', `x ${s.password} y`, 'password as plain'],
    ['URL-encoded', `q=${encodeURIComponent(`${s.token}/+`)}`, 'token as'],
    ['in a Basic credential', `Basic ${b64(`tester:${s.password}`)}`, 'password as base64'],
    ['base64 at offset 1', b64(`a${s.hubSecret}b`), 'hubSecret as base64'],
    ['base64 at offset 2', b64(`ab${s.hubSecret}`), 'hubSecret as base64'],
    ['base64url', Buffer.from(`${s.token}`).toString('base64url'), 'token as base64'],
  ])('%s', (_name, text, want) => {
    expect(findPlanted({ t: text }, { ...s }).join('\n')).toContain(`t: ${want}`);
  });

  it('finds nothing in a text without them, and in a Buffer as in a string', () => {
    expect(findPlanted({ t: 'Basic ***, password "set"' }, { ...s })).toEqual([]);
    expect(findPlanted({ b: Buffer.from(`..${s.password}..`) }, { ...s })).toEqual(['b: password as plain']);
  });

  it('plants unique values', () => {
    expect(plantSecrets().password).not.toBe(s.password);
  });
});
