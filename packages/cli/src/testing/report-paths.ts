/**
 * Scans the files of a report folder for local paths of this machine: the checkout's absolute path and the home
 * directory (a report goes to a customer: DESIGN.md, COMMON "No report shows a local path"). For the tests of any
 * command that writes reports (load, conform).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { repoRoot } from '@erpcert/contract';

/** One local path found in a report file. */
export interface PathLeak {
  /** The file, relative to the scanned folder. */
  readonly file: string;
  readonly path: string;
  readonly line: number;
  /** The text around it. */
  readonly excerpt: string;
}

/** The paths no report may show: the checkout and the home directory (not `/`, which every URL has). */
export function localPaths(): string[] {
  return [repoRoot, homedir()].filter((p) => p.length > 1).sort((a, b) => b.length - a.length);
}

const regexpText = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every file under `dir`, recursively. */
function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesOf(path) : [path];
  });
}

/**
 * Every occurrence of one of `paths` in the files under `dir`; a path counts when it ends there or a `/`,
 * quote, space or bracket follows (so `/root` does not match `/root_group`). JSON-escaped slashes (`\/`) too.
 */
export function scanReportFiles(dir: string, paths: readonly string[] = localPaths()): PathLeak[] {
  const leaks: PathLeak[] = [];
  for (const file of filesOf(dir)) {
    const text = readFileSync(file, 'utf8');
    for (const path of paths) {
      const forms = [path, path.replace(/\//g, '\\/')].map(regexpText);
      const re = new RegExp(`(?:${forms.join('|')})(?=$|[/\\\\"'\`\\s)<>,;:])`, 'g');
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        leaks.push({
          file: relative(dir, file),
          path,
          line: text.slice(0, m.index).split('\n').length,
          excerpt: text.slice(Math.max(0, m.index - 40), m.index + path.length + 40),
        });
      }
    }
  }
  return leaks;
}
