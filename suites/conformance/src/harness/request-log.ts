/**
 * A dev-only log of the requests the suite sends, each tagged by the test that sent it, to see where a run's
 * requests go (issue 19: the gate profile's request count). Off unless `ERPCERT_REQUEST_LOG` names a file;
 * each request appends one line `<test file>\t<test name>\t<run>\t<method> <path>` (no query string, no headers, no
 * body, so no secret). Requests sent outside a test (collection, hooks) carry the tag `(outside a test)`.
 */
import { appendFileSync } from 'node:fs';
import type { Exchange } from '@erpcert/client';

const OUTSIDE = '(outside a test)';
let current = `\t${OUTSIDE}`;
let run = 0;

/** The test whose requests follow; `undefined` when the test ended. */
export function setRequestTag(file: string | undefined, test: string | undefined): void {
  current = test === undefined ? `${file ?? ''}\t${OUTSIDE}` : `${file ?? ''}\t${test}`;
  run = 0;
}

/** A property run starts: its requests carry its number (0 for the test's setup). */
export function nextRequestRun(): void {
  run++;
}

/** The observer that appends each exchange to `file`, or undefined when no log was asked for. */
export function requestLogger(
  file: string | undefined = process.env.ERPCERT_REQUEST_LOG,
): ((e: Exchange) => void) | undefined {
  if (file === undefined || file === '') return undefined;
  return (e) => {
    const path = e.request.url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0];
    appendFileSync(file, `${current}\t${run}\t${e.request.method} ${path}\n`);
  };
}
