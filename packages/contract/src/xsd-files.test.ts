import { describe, expect, it } from 'vitest';
import { loadXsdFiles } from './xsd.js';
import { xmlBodyKindInfo, xmlBodyKinds } from './xsd-kinds.js';
import { outlineXml } from './xsd-outline.js';

const files = loadXsdFiles();
const topLevel = ['xs:element', 'xs:complexType', 'xs:simpleType', 'xs:group', 'xs:attribute'];

describe('specs/xsd files', () => {
  it('has a schema file for every kind', () => {
    const names = new Set(files.map((f) => f.fileName));
    expect(xmlBodyKinds.map((k) => xmlBodyKindInfo[k].schema).filter((s) => !names.has(s))).toEqual([]);
  });

  it.each(files.map((f) => [f.fileName, f.contents]))('%s documents every top-level declaration', (_name, text) => {
    const schema = outlineXml(text, 4)?.roots[0];
    expect(schema?.name).toBe('xs:schema');
    const undocumented = (schema?.children ?? [])
      .filter((d) => topLevel.includes(d.name))
      .filter(
        (d) =>
          !d.children.some((a) => a.name === 'xs:annotation' && a.children.some((x) => x.name === 'xs:documentation')),
      )
      .map((d) => `${d.name} ${d.attributes.name}`);
    expect(undocumented).toEqual([]);
  });
});
