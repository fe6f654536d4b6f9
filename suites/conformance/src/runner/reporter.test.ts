import { describe, expect, it } from 'vitest';
import { errorText } from './reporter.js';

describe('errorText', () => {
  it.each([
    [{ name: 'AssertionError', message: 'expected 1 to be 2' }, 'AssertionError: expected 1 to be 2'],
    [{ name: 'Error', message: 'plain' }, 'plain'],
    [
      { message: '\u001b[31m[PARSE_ERROR] \u001b[0mUnexpected token \u001b[38;5;246m╭\u001b[0m' },
      '[PARSE_ERROR] Unexpected token ╭',
    ],
    ['a string', 'a string'],
    [{ code: 7 }, '{"code":7}'],
  ])('%j -> %s', (input, want) => {
    expect(errorText(input)).toBe(want);
  });
});
