import { describe, expect, it } from 'vitest';
import { newRunTag, RUN_TAG_PATTERN } from './run-tag.js';

describe('newRunTag', () => {
  it('is EC and four base-36 characters', () => {
    for (let i = 0; i < 20; i++) expect(newRunTag()).toMatch(RUN_TAG_PATTERN);
  });

  it('spells each random digit in base 36, upper case', () => {
    const digits = [0, 10, 35, 7];
    expect(newRunTag(() => digits.shift()!)).toBe('EC0AZ7');
  });
});
