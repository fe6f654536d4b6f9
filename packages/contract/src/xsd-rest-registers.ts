import type { RegisterDef } from './registers.js';
import { escapeXml } from './xml-escape.js';

/** Path of the generated schema, relative to `specs/xsd/`. */
export const restRegistersXsdFile = 'rest-registers.xsd';

const header = `<?xml version="1.0" encoding="UTF-8"?>
<!--
  GENERATED from specs/registers.yaml by packages/contract/src/xsd-generate.ts (run it with tsx; its header
  has the command). Do not edit by hand: a test fails when this file drifts from the register catalogue.

  One record element per register of record-rest-api.md §2 "Registers, keys and main fields": the record type of
  rest-record.xsd with @register fixed to the register and @url holding as many key parts as the register's key
  (§4 rule 11). The key below each element makes every field text-only (a field's child element has no
  @rownumber) and keeps row numbers unique within the record.
-->
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="unqualified">
  <xs:include schemaLocation="rest-record.xsd"/>
`;

/** XSD regex for the key part of `@url`: one segment per key field; a single key part may not be empty. */
export function urlKeyPattern(key: readonly string[]): string {
  if (key.length <= 1) return '[^/?#\\s]+';
  return key.map(() => '[^/?#\\s]*').join('/');
}

function renderRegister(r: RegisterDef): string {
  const key = r.keyNote ?? r.key.join(' + ');
  const rows = r.rowFields.length > 0 ? ` rows: ${r.rowFields.join(', ')}.` : ' No lines.';
  const readOnly = r.readOnly ? ' Read-only.' : '';
  const doc = escapeXml(`${r.name}: ${r.meaning}; key ${key}.${readOnly}${rows}`);
  return `
  <xs:element name="${r.name}">
    <xs:annotation>
      <xs:documentation>${doc} record-rest-api.md §2 "Registers, keys and main fields".</xs:documentation>
    </xs:annotation>
    <xs:complexType>
      <xs:complexContent>
        <xs:restriction base="RestRecord">
          <xs:sequence>
            <xs:any minOccurs="0" maxOccurs="unbounded" processContents="lax"/>
          </xs:sequence>
          <xs:attribute name="register" type="RegisterName" use="required" fixed="${r.name}"/>
          <xs:attribute name="url" use="required">
            <xs:simpleType>
              <xs:restriction base="RecordUrl">
                <xs:pattern value="/api/[0-9]+/${r.name}/${urlKeyPattern(r.key)}"/>
              </xs:restriction>
            </xs:simpleType>
          </xs:attribute>
          <xs:anyAttribute processContents="lax"/>
        </xs:restriction>
      </xs:complexContent>
    </xs:complexType>
    <xs:key name="${r.name}.field-values-are-text.rownumbers-unique">
      <xs:selector xpath="*/*"/>
      <xs:field xpath="@rownumber"/>
    </xs:key>
  </xs:element>
`;
}

/** Renders `specs/xsd/rest-registers.xsd` from the register catalogue. */
export function renderRestRegistersXsd(regs: readonly RegisterDef[]): string {
  return `${header}${regs.map(renderRegister).join('')}</xs:schema>\n`;
}
