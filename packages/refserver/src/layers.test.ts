import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, importSpecifiers, sourceFiles } from './testing/import-graph.js';

// issue 10 part 5, README "Layers": imports inside the server point one way.
const SRC = fileURLToPath(new URL('.', import.meta.url));
const isTest = (f: string) => f.endsWith('.test.ts') || f.split('/').includes('testing');
const all = sourceFiles(SRC);
const graph = importGraph(
  SRC,
  all.filter((f) => !isTest(f)),
);

/** The layers, lowest first: a file may import its own layer and those below, never one above. */
const LAYERS: readonly [string, (f: string) => boolean][] = [
  ['leaves', (f) => ['errors.ts', 'log.ts'].includes(f) || /^(values|schema)\//.test(f)],
  ['store', (f) => f.startsWith('store/')],
  ['business', (f) => f.startsWith('business/')],
  ['wire', (f) => /^(http|render|auth)\//.test(f)],
  ['app types', (f) => f === 'app-types.ts'],
  ['features', (f) => /^(rest|portal|seed|observed)\//.test(f)],
  ['modules', (f) => f === 'modules.ts'],
  ['app', (f) => f === 'app.ts'],
  ['entry points', (f) => f === 'index.ts' || f.startsWith('server/')],
];
const layerOf = (f: string) => LAYERS.findIndex(([, test]) => test(f));

describe('import statements are read', () => {
  it.each([
    ["import { a } from './a.js';", ['./a.js']],
    ["import type { A } from '../b.js';", ['../b.js']],
    ["export { c } from './c.js';\nexport * from './d.js';", ['./c.js', './d.js']],
    ["import './side.js';", ['./side.js']],
    ["const m = await import('./lazy.js');", ['./lazy.js']],
    ["import {\n  a,\n  type B,\n} from './multi.js';", ['./multi.js']],
    ["import x from 'node:fs';\n// import { y } from './commented.js';\n/** import { z } from './doc.js' */", []],
  ])('%j', (source, want) => {
    expect(importSpecifiers(source)).toEqual(want);
  });

  it('finds a circle and only the circle', () => {
    const g = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
    ]);
    expect(importCycles(g)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(
      importCycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });
});

describe('the server source (packages/refserver/src)', () => {
  it('has every non-test file in a layer', () => {
    expect([...graph.keys()].filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  it('has no import circle', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('imports app.ts only from the entry points and tests', () => {
    const full = importGraph(SRC, all);
    const importers = [...full].filter(([, to]) => to.includes('app.ts')).map(([f]) => f);
    expect(importers.filter((f) => !isTest(f) && layerOf(f) !== LAYERS.length - 1)).toEqual([]);
  });

  it('imports no file of a higher layer (business/ and store/ never import what is built on them)', () => {
    const upward: string[] = [];
    for (const [from, tos] of graph)
      for (const to of tos)
        if (layerOf(to) > layerOf(from))
          upward.push(`${from} (${LAYERS[layerOf(from)]![0]}) -> ${to} (${LAYERS[layerOf(to)]![0]})`);
    expect(upward).toEqual([]);
  });
});
