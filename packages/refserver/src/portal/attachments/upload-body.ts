import { decodeBase64Strict } from '@erpcert/contract';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { PortalError } from '../handler.js';

/** One uploaded file. */
export interface UploadedFile {
  readonly filename: string;
  readonly content: Buffer;
}

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'file',
});

/** A file name that names one file: no path separators, no control characters, at most 255 characters. */
function checkFilename(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (name === '' || name.length > 255 || /[/\\\u0000-\u001f]/.test(name) || name === '.' || name === '..')
    throw new PortalError(`upload filename "${name}" must be a plain file name (no path, 1 to 255 characters)`);
  return name;
}

/**
 * Reads the upload body `<root><file><filename>name</filename><base64>content</base64></file></root>`
 * (portal-action-api.md §2: "Attachment upload body is XML ... Files are always transferred as base64
 * inside XML"). Exactly one file per upload; anything else is refused with what is wrong.
 */
export function parseUploadBody(body: Buffer): UploadedFile {
  const text = body.toString('utf8');
  if (text.trim() === '')
    throw new PortalError('the upload body is empty; send <root><file><filename/><base64/></file></root>');
  const valid = XMLValidator.validate(text);
  if (valid !== true)
    throw new PortalError(`the upload body is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const doc = parser.parse(text) as Record<string, unknown>;
  const root = doc.root as { file?: unknown[] } | undefined;
  if (!root || typeof root !== 'object')
    throw new PortalError('the upload body must have the root element <root> holding <file>');
  const files = root.file ?? [];
  if (files.length !== 1) throw new PortalError(`the upload body must hold exactly one <file>, got ${files.length}`);
  const file = files[0] as { filename?: unknown; base64?: unknown } | string;
  if (typeof file !== 'object' || file === null) throw new PortalError('<file> must hold <filename> and <base64>');
  if (typeof file.filename !== 'string') throw new PortalError('<file> must hold one <filename> with the file name');
  if (file.base64 !== undefined && typeof file.base64 !== 'string')
    throw new PortalError('<file> must hold one <base64> with the content');
  const content = decodeBase64Strict(file.base64 ?? '');
  if (!content) throw new PortalError('<base64> is not valid base64');
  return { filename: checkFilename(file.filename), content };
}
