import { describe, expect, it } from 'vitest';
import { maskSecret } from './k6-process.js';

describe('maskSecret (k6 output)', () => {
  it('masks a password of MIN_SECRET_LENGTH characters or more wherever it stands', () => {
    expect(maskSecret('login erpcert1 failed: erpcert1', 'erpcert1')).toBe('login *** failed: ***');
  });

  it.each(['p', 'test', 'data', 'rules'])('leaves the output alone for the short password %j', (password) => {
    const line = 'running 3 scenarios: test data, rules of the http_req_duration p(95)';
    expect(maskSecret(line, password)).toBe(line);
  });
});
