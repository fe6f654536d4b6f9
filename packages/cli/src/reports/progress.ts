/**
 * Progress of a run on stderr, from the run's events. On a terminal: a live line with the counts of the
 * area now running, and one line per finished test file. Elsewhere (CI logs): only the line per file.
 */
import { combineVerdicts, type RunEvent } from './runner.js';

interface Tally {
  PASS: number;
  FAIL: number;
  ERROR: number;
  WARN: number;
  SKIP: number;
  /** Tests whose rules got no verdict (unspecified rules outside the strict profile). */
  NONE: number;
}

/** Where progress goes: stderr, or a stream that masks secrets on the way. */
export interface LineSink {
  write(text: string): unknown;
}

const empty = (): Tally => ({ PASS: 0, FAIL: 0, ERROR: 0, WARN: 0, SKIP: 0, NONE: 0 });
const areaOf = (rule: string | undefined) => (rule ? rule.split('.').slice(0, 2).join('.') : 'untagged');
const show = (t: Tally) =>
  `${t.PASS} pass, ${t.FAIL} fail${t.ERROR > 0 ? `, ${t.ERROR} error` : ''}, ${t.WARN} warn, ${t.SKIP} skip${t.NONE > 0 ? `, ${t.NONE} not judged` : ''}`;

/** Subscribe {@link ProgressPrinter.listener} to a run's events. */
export class ProgressPrinter {
  readonly #out: LineSink;
  readonly #tty: boolean;
  readonly #areas = new Map<string, Tally>();
  readonly #files = new Map<string, Tally>();
  #area = '';
  #filesTotal = 0;
  #filesDone = 0;
  #live = false;

  constructor(out: LineSink, tty: boolean) {
    this.#out = out;
    this.#tty = tty;
  }

  #clear(): void {
    if (this.#live) this.#out.write('\r\u001b[2K');
    this.#live = false;
  }

  #status(): void {
    if (!this.#tty) return;
    const t = this.#areas.get(this.#area) ?? empty();
    this.#clear();
    this.#out.write(`  ${this.#area}: ${show(t)}  [${this.#filesDone}/${this.#filesTotal} files]`);
    this.#live = true;
  }

  readonly listener = (e: RunEvent): void => {
    if (e.type === 'run-start') {
      this.#filesTotal = e.files.length;
      this.#out.write(`erpcert conform: ${e.files.length} test file(s)\n`);
    } else if (e.type === 'test') {
      if (!e.selected) return;
      // the test's own verdict: the combined verdict of its rules
      const v = combineVerdicts(e.verdicts.map((x) => x.verdict)) ?? 'NONE';
      this.#area = areaOf(e.rules[0]);
      for (const [map, key] of [
        [this.#areas, this.#area],
        [this.#files, e.file],
      ] as const) {
        const t = map.get(key) ?? empty();
        t[v]++;
        map.set(key, t);
      }
      this.#status();
    } else if (e.type === 'module-end') {
      this.#filesDone++;
      const t = this.#files.get(e.file) ?? empty();
      const mark = e.errors.length > 0 ? 'E' : t.FAIL > 0 ? 'x' : t.ERROR > 0 ? 'e' : t.WARN > 0 ? '!' : 'ok';
      this.#clear();
      this.#out.write(
        `  ${mark.padEnd(2)} ${e.file}: ${show(t)}${e.errors.length > 0 ? `; did not complete: ${e.errors[0]}` : ''}\n`,
      );
      this.#status();
    } else if (e.type === 'run-end') {
      this.#clear();
      if (e.reason === 'interrupted') this.#out.write('erpcert conform: interrupted\n');
    }
  };
}
