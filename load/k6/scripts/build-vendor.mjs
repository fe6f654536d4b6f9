// Bundles the parts of npm packages the k6 scripts need into ES modules under dist/vendor/ (git-ignored).
// k6 cannot resolve bare npm specifiers and jslib downloads fail here, so the scripts import these files
// relatively:
// - fast-xml-parser.js: only XMLParser (the scripts never build or validate XML);
// - erpcert-text.js: @erpcert/contract/text, the one XML escaper and Markdown cell escaper every erpcert report
//   uses (pure functions, no Node API), for the JUnit and Markdown files handleSummary writes.
// Runs on `pnpm install` (prepare), on pack (prepack), in build and typecheck, and from the Node API when missing.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist', 'vendor');
await mkdir(outDir, { recursive: true });

/** Each bundle: its file name and the one export line it is made of (also its declarations, for tsc). */
const bundles = [
  { file: 'fast-xml-parser', source: "export { XMLParser } from 'fast-xml-parser';", minify: true },
  {
    file: 'erpcert-text',
    source: "export { escapeXml, escapeXmlAttribute, markdownCell } from '@erpcert/contract/text';",
    minify: false,
  },
];

for (const b of bundles) {
  await build({
    stdin: { contents: b.source, resolveDir: root, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2020',
    minify: b.minify,
    legalComments: 'eof',
    outfile: join(outDir, `${b.file}.js`),
    logLevel: 'warning',
  });
  // Types for tsc (tsconfig.k6.json and the Node side): the bundle exports exactly what the line exports.
  await writeFile(join(outDir, `${b.file}.d.ts`), `${b.source}\n`);
}
console.log(`vendor: ${bundles.map((b) => `dist/vendor/${b.file}.js`).join(', ')}`);
