#!/usr/bin/env node
// The `erpcert` command. The workspace ships TypeScript sources; tsx compiles them on load.
import { register } from 'tsx/esm/api';

register();
try {
  const { main } = await import('../src/main.ts');
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  process.stderr.write(
    `erpcert: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 2;
}
