/** The one shellQuote's cases: those of client curl.ts and cli reports/replay.ts, and what sh reads back. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote } from './shell-quote.js';

const CASES: [string, string][] = [
  ['REST.QUERY.SORT_ASCENDING', 'REST.QUERY.SORT_ASCENDING'],
  ['http://h:8080/x', 'http://h:8080/x'],
  ['--user=ci@example.com', '--user=ci@example.com'],
  ['a b', "'a b'"],
  ["it's", `'it'\\''s'`],
  ['$HOME', "'$HOME'"],
  ['`id`', "'`id`'"],
  ['http://h/api/1/IVVc?compcode=1&x=2', "'http://h/api/1/IVVc?compcode=1&x=2'"],
  ['Cookie: HSESSION=', "'Cookie: HSESSION='"],
  ['~root', "'~root'"],
  ['*', "'*'"],
  ['a\nb', "'a\nb'"],
  ['', "''"],
];

describe('shellQuote', () => {
  it.each(CASES)('%j -> %s', (word, want) => {
    expect(shellQuote(word)).toBe(want);
  });

  it('sh reads every quoted word back as the word itself', () => {
    const words = [...CASES.map(([w]) => w), "''\\'\"", ' lead and trail '];
    const script = `for w in ${words.map(shellQuote).join(' ')}; do printf '%s\\0' "$w"; done`;
    const out = execFileSync('sh', ['-c', script], { encoding: 'utf8' });
    expect(out.split('\0').slice(0, -1)).toEqual(words);
  });
});
