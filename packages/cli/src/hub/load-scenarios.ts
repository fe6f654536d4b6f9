/**
 * The load scenarios the hub's live runs may name, as `erpcert hub` hands them to the hub (which never imports the
 * CLI): what `erpcert load --scenario` accepts, each with the catalogue's title as its description.
 */
import type { LoadScenarioChoice } from '@erpcert/hub';
import { scenarios } from '@erpcert/load-k6';

export function loadScenarioChoices(): LoadScenarioChoice[] {
  return [
    ...scenarios.map((s) => ({ name: s.name, description: s.title })),
    { name: 'all', description: 'every scenario above, one after another' },
  ];
}
