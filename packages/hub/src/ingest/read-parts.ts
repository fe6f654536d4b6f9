/**
 * The files of a report folder sent as multipart parts, one per file, the part's filename its path inside the
 * folder: what `erpcert publish` sends to POST /api/v1/runs, and what the upload page's folder input posts (a
 * browser names each part by the file's `webkitRelativePath`, the chosen folder's name first, which
 * {@link RunFilesBuilder.build} takes off). The paths and sizes are checked by the same builder as a zip's.
 */
import { IngestError } from './ingest-error.js';
import type { IngestLimits } from './limits.js';
import { type RunFiles, RunFilesBuilder } from './run-files.js';

export async function readParts(parts: readonly (string | File)[], limits: IngestLimits): Promise<RunFiles> {
  const files = new RunFilesBuilder(limits);
  for (const part of parts) {
    if (typeof part === 'string') throw new IngestError('a "file" part must be a file whose filename is its path');
    files.add(part.name, Buffer.from(await part.arrayBuffer()));
  }
  return files.build();
}
