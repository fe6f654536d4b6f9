import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { specsDir } from './paths.js';
import { registers } from './registers.js';
import { renderRestRegistersXsd, restRegistersXsdFile, urlKeyPattern } from './xsd-rest-registers.js';

describe('specs/xsd/rest-registers.xsd', () => {
  it('is what the register catalogue generates (regenerate with src/xsd-generate.ts)', () => {
    const committed = readFileSync(join(specsDir, 'xsd', restRegistersXsdFile), 'utf8');
    expect(committed).toBe(renderRestRegistersXsd(registers));
  });

  it('declares one record element per register', () => {
    const committed = readFileSync(join(specsDir, 'xsd', restRegistersXsdFile), 'utf8');
    const declared = [...committed.matchAll(/^ {2}<xs:element name="([^"]+)">/gm)].map((m) => m[1]);
    expect(declared).toEqual(registers.map((r) => r.name));
  });

  it.each([
    [['SerNr'], '[^/?#\\s]+'],
    [['Code', 'Location'], '[^/?#\\s]*/[^/?#\\s]*'],
  ])('writes one url segment per key part: %j', (key, pattern) => {
    expect(urlKeyPattern(key)).toBe(pattern);
  });
});
