/**
 * The files of one uploaded run, path -> bytes, gathered under the limits. Every source (zip, multipart folder,
 * folder on disk) adds its files through {@link RunFilesBuilder}, so the checks are the same for all of them.
 */
import { IngestError } from './ingest-error.js';
import { formatBytes, type IngestLimits } from './limits.js';
import { checkRunPath } from './run-path.js';

export type RunFiles = ReadonlyMap<string, Buffer>;

export class RunFilesBuilder {
  private readonly files = new Map<string, Buffer>();
  private total = 0;

  constructor(private readonly limits: IngestLimits) {}

  /** Bytes still allowed. */
  get remaining(): number {
    return this.limits.maxRunBytes - this.total;
  }

  /** Counts `n` more bytes (while inflating, before the file is complete); throws past the limit. */
  count(n: number): void {
    this.total += n;
    if (this.total > this.limits.maxRunBytes)
      throw new IngestError(
        `the run is too large: more than ${formatBytes(this.limits.maxRunBytes)} of files (the hub's limit)`,
        413,
      );
  }

  /** Adds a complete file whose bytes were already counted with {@link count}. */
  addCounted(path: string, bytes: Buffer): void {
    const p = checkRunPath(path);
    if (this.files.has(p)) throw new IngestError(`the upload holds ${p} twice`);
    if (this.files.size >= this.limits.maxFiles)
      throw new IngestError(`the run has more than ${this.limits.maxFiles} files (the hub's limit)`, 413);
    this.files.set(p, bytes);
  }

  /** Adds a complete file. */
  add(path: string, bytes: Buffer): void {
    checkRunPath(path);
    this.count(bytes.length);
    this.addCounted(path, bytes);
  }

  /**
   * The files; when they all sit in one top folder without a results.json at the root (a zip of the folder
   * itself, a browser's folder upload), that folder is taken off their paths, unless `stripTop` is false.
   */
  build(stripTop = true): RunFiles {
    if (this.files.size === 0) throw new IngestError('the upload holds no files: not a run folder');
    if (this.files.has('results.json') || !stripTop) return this.files;
    const tops = new Set([...this.files.keys()].map((p) => p.split('/')[0]));
    const [top] = tops;
    if (tops.size === 1 && top !== undefined && this.files.has(`${top}/results.json`))
      return new Map([...this.files].map(([p, b]) => [p.slice(top.length + 1), b]));
    return this.files;
  }
}
