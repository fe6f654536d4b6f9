/**
 * `conform --events FILE`: the run's progress as JSON lines, appended as it happens, for tools that follow a
 * run (the hub's live runs). One object per line, from the run's (masked) events:
 *   {"type":"run-start","at":"...","files":12}
 *   {"type":"test","file":"...","state":"passed","verdicts":[{"rule":"REST.VERSION.PATH","verdict":"PASS"}]}
 *   {"type":"module-end","file":"...","errors":0}
 *   {"type":"run-end","at":"...","reason":"passed"}
 * Only the rules of the run's scope (`--only`) and their verdicts: no exchange, no failure text.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import type { RunEvent } from './runner.js';

/** A line of the events file for `e`, or undefined (a test outside the selection). */
export function eventLine(e: RunEvent, scope?: ReadonlySet<string>): string | undefined {
  switch (e.type) {
    case 'run-start':
      return JSON.stringify({ type: e.type, at: e.at, files: e.files.length });
    case 'test':
      if (!e.selected) return undefined;
      return JSON.stringify({
        type: e.type,
        file: e.file,
        state: e.state,
        verdicts: e.verdicts
          .filter((v) => scope === undefined || scope.has(v.rule))
          .map((v) => ({ rule: v.rule, verdict: v.verdict })),
      });
    case 'module-end':
      return JSON.stringify({ type: e.type, file: e.file, errors: e.errors.length });
    case 'run-end':
      return JSON.stringify({ type: e.type, at: e.at, reason: e.reason });
  }
}

/** A listener appending {@link eventLine}s to `path` (created empty first). */
export function eventsFileListener(path: string, scope?: ReadonlySet<string>): (e: RunEvent) => void {
  writeFileSync(path, '');
  return (e) => {
    const line = eventLine(e, scope);
    if (line !== undefined) appendFileSync(path, `${line}\n`);
  };
}
