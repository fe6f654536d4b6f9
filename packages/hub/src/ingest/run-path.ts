/**
 * A file's path inside a run folder, as an upload names it. Refused: absolute paths (`/x`, `C:/x`, `\\x`),
 * `.` and `..` segments, backslashes, empty segments, control characters, over-long names: a path outside the
 * folder (zip-slip) never reaches the store or the disk.
 */
import { IngestError } from './ingest-error.js';

const MAX_PATH = 512;

/** The path checked; throws {@link IngestError} naming the path and what is wrong with it. */
export function checkRunPath(path: string): string {
  const bad = (why: string) => new IngestError(`the path ${JSON.stringify(path.slice(0, 200))} ${why}`);
  if (path.length === 0) throw bad('is empty');
  if (path.length > MAX_PATH) throw bad(`is longer than ${MAX_PATH} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(path)) throw bad('holds a control character');
  if (path.includes('\\')) throw bad('holds a backslash (zip paths use /)');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) throw bad('is absolute: a path outside the run folder');
  const segments = path.split('/');
  if (segments.some((s) => s === '..')) throw bad('climbs out of the run folder with ..');
  if (segments.some((s) => s === '.' || s === '')) throw bad('has an empty or . segment');
  return path;
}
