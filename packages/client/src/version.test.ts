import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toHar } from './har.js';
import { erpcertVersion } from './version.js';

/** This package's manifest, read by the test on its own. */
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

describe('erpcertVersion', () => {
  it("is this package's version, and the HAR creator names it", () => {
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(erpcertVersion()).toBe(manifest.version);
    expect(toHar([]).log.creator).toEqual({ name: 'erpcert', version: manifest.version });
  });
});
