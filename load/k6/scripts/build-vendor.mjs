// Bundles the parts of npm packages the k6 scripts need into ES modules under dist/vendor/ (git-ignored).
// k6 cannot resolve bare npm specifiers and jslib downloads fail here, so the scripts import these files
// relatively. Only XMLParser is exported: the scripts never build or validate XML.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist', 'vendor');
await mkdir(outDir, { recursive: true });

await build({
  stdin: { contents: "export { XMLParser } from 'fast-xml-parser';", resolveDir: root, loader: 'js' },
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  target: 'es2020',
  minify: true,
  legalComments: 'eof',
  outfile: join(outDir, 'fast-xml-parser.js'),
  logLevel: 'warning',
});
// Types for tsc (tsconfig.k6.json): the bundle exports exactly what the package exports under that name.
await writeFile(join(outDir, 'fast-xml-parser.d.ts'), "export { XMLParser } from 'fast-xml-parser';\n");
console.log('vendor: dist/vendor/fast-xml-parser.js');
