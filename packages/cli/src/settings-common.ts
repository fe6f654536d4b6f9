/** Option checks that `erpcert conform` and `erpcert load` share (DESIGN.md "Command-line contract"). */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { folderStamp } from '@erpcert/contract';
import { UsageError } from './options.js';

/** A non-empty string option, or undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
/** An integer option (parseArgs has checked it), or undefined. */
export const int = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** `--target`: an http(s) base URL without credentials, query or fragment; trailing slashes dropped. */
export function targetUrl(value: unknown): string | undefined {
  const target = str(value)?.replace(/\/+$/, '');
  if (target === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new UsageError(`--target must be a URL such as https://erp.example.com, got ${JSON.stringify(target)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError('--target must be an http:// or https:// URL');
  if (url.username || url.password)
    throw new UsageError('put the credentials in --user and --password (or ERPCERT_PASSWORD), not in the --target URL');
  if (url.search || url.hash) throw new UsageError('--target is the base URL only, without a query or fragment');
  return target;
}

/** A fresh report folder `reports/<kind>/<timestamp>`, with `-2`, `-3`... when taken. */
export function defaultReportDir(cwd: string, kind: 'conformance' | 'load' | 'cleanup', now: Date): string {
  const base = resolve(cwd, 'reports', kind, folderStamp(now));
  let dir = base;
  for (let i = 2; existsSync(dir); i++) dir = `${base}-${i}`;
  return dir;
}
