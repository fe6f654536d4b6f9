import { readFileSync } from 'node:fs';

/**
 * erpcert's version, from packages/cli/package.json (as commands/conform.ts TOOL_VERSION, read here so that
 * certify and verify do not load the conform command and the reference server with it).
 */
export const ERPCERT_VERSION: string = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
).version;
