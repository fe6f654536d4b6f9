/**
 * axe-core in a page of the browser tests: the serious and critical violations of the page as it is, one line each
 * (impact, rule, help, where). The hub's, certification's and the CLI's journey tests share it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => {
    // axe and document are the page's globals (the test runs in Node, without the DOM types)
    const g = globalThis as unknown as {
      axe: { run(ctx: unknown, o: unknown): Promise<{ violations: unknown[] }> };
      document: unknown;
    };
    return (await g.axe.run(g.document, { resultTypes: ['violations'] })).violations;
  })) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
