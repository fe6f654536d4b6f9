/**
 * The files of a zipped run folder, read with yauzl (thejoshwolfe/yauzl: reads the central directory, refuses
 * unsafe file names, and checks each entry's inflated size against its header). On top of that every byte is
 * counted while it is inflated, so a zip bomb is stopped at the limit whatever its headers claim: the total
 * (IngestLimits.maxRunBytes) and each entry's inflated / compressed ratio (maxRatio).
 */
import yauzl from 'yauzl';
import { IngestError } from './ingest-error.js';
import { type IngestLimits, RATIO_FLOOR_BYTES } from './limits.js';
import { type RunFiles, RunFilesBuilder } from './run-files.js';
import { checkRunPath } from './run-path.js';

function openZip(buffer: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(
      buffer,
      { lazyEntries: true, validateEntrySizes: true, strictFileNames: true, decodeStrings: true },
      (err, zip) => (err || !zip ? reject(err ?? new Error('no zip')) : resolve(zip)),
    ),
  );
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, files: RunFilesBuilder, limits: IngestLimits) {
  return new Promise<Buffer>((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(err ?? new Error('no stream'));
      const chunks: Buffer[] = [];
      let inflated = 0;
      stream.on('data', (chunk: Buffer) => {
        try {
          inflated += chunk.length;
          files.count(chunk.length);
          const compressed = Math.max(entry.compressedSize, 1);
          if (inflated > RATIO_FLOOR_BYTES && inflated / compressed > limits.maxRatio)
            throw new IngestError(
              `${entry.fileName} inflates more than ${limits.maxRatio} times its compressed size: refused as a zip bomb`,
              413,
            );
          chunks.push(chunk);
        } catch (e) {
          stream.destroy();
          reject(e);
        }
      });
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}

/** The files of `buffer`, a zip; throws {@link IngestError} for anything that is not a safe zip within the limits. */
export async function readZip(buffer: Buffer, limits: IngestLimits): Promise<RunFiles> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(buffer);
  } catch (err) {
    throw new IngestError(`the upload is not a readable zip file: ${(err as Error).message}`);
  }
  const files = new RunFilesBuilder(limits);
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (err: Error) => reject(err));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName;
        if (name.endsWith('/')) {
          zip.readEntry();
          return;
        }
        try {
          checkRunPath(name);
          if (entry.isEncrypted()) throw new IngestError(`${name} is encrypted`);
        } catch (e) {
          reject(e);
          return;
        }
        readEntry(zip, entry, files, limits)
          .then((bytes) => {
            files.addCounted(name, bytes);
            zip.readEntry();
          })
          .catch(reject);
      });
      zip.readEntry();
    });
  } catch (err) {
    if (err instanceof IngestError) throw err;
    // yauzl's own refusals: an unsafe file name, an entry larger than its header says, a corrupt stream
    throw new IngestError(`the zip file is refused: ${(err as Error).message}`);
  } finally {
    zip.close();
  }
  return files.build();
}
