/**
 * The XSD kind of the XML success body of a portal request, read from specs/portal-action.openapi.yaml (its paths
 * are `/WebErpAPI.hal#action=<action>`, `#action=action&register=<sub-action>`, `#register=<list register>`): so a
 * body the client cannot decode can be checked against the shape the docs give it, and the failure blamed by path.
 */
import { loadSpec } from './specs.js';
import type { XmlBodyKind } from './xsd-kinds.js';
import { kindOfSchema } from './xsd-openapi-kinds.js';

let byKey: Map<string, XmlBodyKind> | undefined;

function table(): Map<string, XmlBodyKind> {
  if (byKey) return byKey;
  byKey = new Map();
  const doc = loadSpec('portal-action') as unknown as { paths: Record<string, Record<string, unknown>> };
  for (const [path, item] of Object.entries(doc.paths)) {
    const key = path.split('#')[1];
    if (key === undefined) continue;
    for (const op of Object.values(item)) {
      const responses = (op as { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> })
        ?.responses;
      for (const [status, r] of Object.entries(responses ?? {})) {
        if (!status.startsWith('2')) continue;
        const schema = r.content?.['application/xml']?.schema as
          | { anyOf?: { $ref?: string }[]; $ref?: string }
          | undefined;
        const refs = [schema?.$ref, ...(schema?.anyOf ?? []).map((a) => a.$ref)].filter((x): x is string => !!x);
        const kinds = refs.map((ref) => kindOfSchema(ref.split('/').pop()!)).filter((k) => k && k !== 'portal-result');
        const kind = kinds[0] ?? (refs.some((ref) => /PortalOperationResult$/.test(ref)) ? 'portal-result' : undefined);
        if (kind !== undefined && kind !== 'open' && !byKey.has(key)) byKey.set(key, kind);
      }
    }
  }
  return byKey;
}

/** The documented XML success kind of the portal request with this query, or undefined (JSON, not shown, unknown). */
export function portalSuccessKind(query: URLSearchParams): XmlBodyKind | undefined {
  const action = query.get('action');
  const key =
    action === null
      ? `register=${query.get('register') ?? ''}`
      : action === 'action'
        ? `action=action&register=${query.get('register') ?? ''}`
        : `action=${action}`;
  return table().get(key);
}
