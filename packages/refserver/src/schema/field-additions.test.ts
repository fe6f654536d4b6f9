import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { docsDir, getRegister } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import { fieldAdditions } from './field-additions.js';
import { schemaFromCatalogue } from './register-schema.js';

const docs = ['portal-action-api.md', 'record-rest-api.md']
  .map((f) => readFileSync(join(docsDir, f), 'utf8'))
  .join('\n');

describe('field additions', () => {
  it.each(fieldAdditions.filter((a) => a.kind === 'named').map((a) => [a.register, a.part, a] as const))(
    '%s %s: every "named" field is named in the docs',
    (_r, _p, addition) => {
      for (const f of addition.fields) expect(docs, `${addition.register} ${f}`).toMatch(new RegExp(`\\b${f}\\b`));
    },
  );

  it('adds only to catalogue registers and never repeats a main field', () => {
    for (const a of fieldAdditions) {
      const def = getRegister(a.register);
      expect(def, a.register).toBeDefined();
      const main = a.part === 'header' ? def!.fields : def!.rowFields;
      for (const f of a.fields) expect(main, `${a.register} ${f}`).not.toContain(f);
    }
  });

  it('extends the schema: IVVc knows OrdRow on rows (rule 4) and DiscSum in the header', () => {
    const ivvc = schemaFromCatalogue(getRegister('IVVc')!);
    expect(ivvc.rowFields).toContain('OrdRow');
    expect(ivvc.fields).toContain('DiscSum');
    expect(ivvc.fields.slice(0, getRegister('IVVc')!.fields.length)).toEqual(getRegister('IVVc')!.fields);
  });
});
