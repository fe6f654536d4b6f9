import { describe, expect, it } from 'vitest';
import { parseScenarios } from '../load/load-settings.js';
import { loadScenarioChoices } from './load-scenarios.js';

describe('the load scenarios erpcert hub offers', () => {
  it('are exactly what erpcert load --scenario accepts, each described', () => {
    const choices = loadScenarioChoices();
    const names = choices.map((c) => c.name);
    expect(names).toEqual(['invoices', 'transactions', 'read-raw', 'read-fields', 'sync', 'portal-mix', 'all']);
    // every name offered runs: parseScenarios refuses an unknown one (UsageError)
    for (const name of names) expect(() => parseScenarios(name)).not.toThrow();
    for (const c of choices) expect(c.description.length).toBeGreaterThan(10);
    expect(new Set(names).size).toBe(names.length);
  });
});
