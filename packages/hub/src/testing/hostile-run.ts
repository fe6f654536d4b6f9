/**
 * A conformance run whose evidence holds what a hostile target under test could put there: markup, a `javascript:`
 * URL, an attribute breakout, SVG with script, control bytes and an over-long body. Built from
 * {@link sampleConformance} (a FAIL with its failure); the planted strings replace the evidence the target chose.
 */
import type { ResultsDocument } from '@erpcert/runs';
import { sampleConformance } from './sample-runs.js';

export const SCRIPT = '<script>alert(1)</script>';
export const BREAKOUT = '"><img src=x onerror=alert(1)>';
export const JS_URL = 'javascript:alert(1)';
export const SVG = '<svg onload=alert(1)><script>alert(2)</script></svg>';
/** Bytes a binary body carries, as the recorder keeps them in a string. */
export const BINARY = 'PK\u0003\u0004\u0000\u0001\u001b[31m\u202e';
export const LONG = 'A'.repeat(50_000);

/** The hostile rule: its FAIL carries every planted string. */
export const HOSTILE_RULE = 'REST.VERSION.SYSTEMVERSION';

export function hostileConformance(url = 'https://hostile.example.com'): ResultsDocument {
  const doc = sampleConformance({ url, embedded: false, runTag: 'HOSTILE' });
  const [failure] = doc.failures;
  if (!failure) throw new Error('the sample has no failure to plant evidence in');
  const [exchange] = failure.exchanges;
  if (!exchange?.response) throw new Error('the sample failure has no exchange');
  return {
    ...doc,
    rules: doc.rules.map((r) => (r.id === HOSTILE_RULE ? { ...r, reason: BREAKOUT } : r)),
    failures: [
      {
        ...failure,
        message: `${failure.message}: ${SCRIPT}`,
        counterexample: `[{"name":${JSON.stringify(BREAKOUT)},"link":${JSON.stringify(JS_URL)}}]`,
        exchanges: [
          {
            ...exchange,
            request: {
              ...exchange.request,
              url: `${url}/api/1/${JS_URL}`,
              headers: { ...exchange.request.headers, 'x-planted': BREAKOUT },
              body: SVG,
            },
            response: {
              ...exchange.response,
              headers: { ...exchange.response.headers, location: JS_URL, 'set-cookie': 'session=abc123' },
              body: `${SCRIPT}${BINARY}${LONG}`,
            },
          },
        ],
        curl: `curl '${url}/api/1/${SCRIPT}'`,
      },
    ],
  };
}
