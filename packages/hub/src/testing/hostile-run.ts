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
/** A lone surrogate: JSON can carry it (`"\\ud800"`), UTF-8 cannot. */
export const LONE_SURROGATE = '\ud800';
/** An over-long value as a target may send it: 1 MiB. */
export const MEGA = 'B'.repeat(1024 * 1024);

/** Every planted string a page must show as text, never as markup. */
export const HOSTILE_STRINGS = [SCRIPT, BREAKOUT, JS_URL, SVG] as const;

/**
 * A body as a hostile target under test answers it: XML whose names and values are the planted strings (markup,
 * an attribute breakout, a `javascript:` URL, SVG with script), control bytes, an invalid UTF-8 sequence (a
 * surrogate's CESU-8 bytes), and an over-long value.
 */
export function hostileXmlBody(): Buffer {
  const text = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const xml =
    `<data register="IVVc" sequence="1" systemversion=${JSON.stringify(BREAKOUT)}>` +
    `<IVVc url=${JSON.stringify(JS_URL)}><SerNr>${SCRIPT}</SerNr><Addr0>${text(SVG)}</Addr0>` +
    `<Comment>${SVG}</Comment><Long>${MEGA}</Long></IVVc></data>`;
  return Buffer.concat([Buffer.from(xml, 'utf8'), Buffer.from([0x00, 0x01, 0x1b, 0x7f, 0xed, 0xa0, 0x80, 0xff])]);
}

/** The same planted strings in JSON, with a lone surrogate (valid JSON, not valid UTF-16 text). */
export function hostileJsonBody(): string {
  const values = [...HOSTILE_STRINGS, BINARY].map((v) => JSON.stringify(v));
  return `{"data":{"@register":${values[0]},"@sequence":"1","@systemversion":${values[1]},"IVVc":[{"@url":${values[2]},"SerNr":${values[3]},"Comment":"x\\ud800y","Addr0":${values[4]},"Long":"${MEGA}"}]}}`;
}

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
