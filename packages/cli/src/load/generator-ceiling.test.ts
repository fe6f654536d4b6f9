import { describe, expect, it } from 'vitest';
import { k6CeilingScript, parseWrkOutput } from './generator-ceiling.js';

describe('wrk output', () => {
  it('reads requests, seconds and errors (wrk 4.1)', () => {
    const text = [
      'Running 5s test @ http://127.0.0.1:40000/api/1/',
      '  2 threads and 16 connections',
      '  Thread Stats   Avg      Stdev     Max   +/- Stdev',
      '    Latency     1.02ms  512.33us  12.10ms   90.12%',
      '  85924 requests in 5.01s, 12.45MB read',
      '  Socket errors: connect 0, read 2, write 0, timeout 1',
      '  Non-2xx or 3xx responses: 4',
      'Requests/sec:  17150.51',
      'Transfer/sec:      2.48MB',
    ].join('\n');
    expect(parseWrkOutput(text)).toEqual({ requests: 85924, seconds: 5.01, errors: 7 });
  });

  it('refuses output without the totals line', () => {
    expect(() => parseWrkOutput('unable to connect to 127.0.0.1:1 Connection refused')).toThrow(/requests in/);
  });
});

describe('the k6 ceiling script', () => {
  it('loops one GET with the headers on the VUs for the duration and writes the summary', () => {
    const script = k6CeilingScript(
      { url: 'http://127.0.0.1:1/api/1/', headers: { cookie: 'HSESSION=abc' }, connections: 16, seconds: 5 },
      '/tmp/s.json',
    );
    expect(script).toContain("vus: 16, duration: '5s', discardResponseBodies: true");
    expect(script).toContain('http.get("http://127.0.0.1:1/api/1/", params)');
    expect(script).toContain('{"cookie":"HSESSION=abc"}');
    expect(script).toContain('"/tmp/s.json": JSON.stringify(data)');
  });
});
