import { type ErpClient, isErpClientError } from '@erpcert/client';
import type { ScenarioName } from '@erpcert/load-k6';
import { LoadTargetError } from './options.js';
import type { TargetRequests } from './target.js';

/** Codes and ids a scenario builds its requests from, read from the target before the load starts. */
export interface ScenarioData {
  /** A contact that can be invoiced and an item (invoices). */
  readonly customer?: string;
  readonly item?: string;
  /** Two accounts for the journal entry rows (transactions, sync). */
  readonly accounts?: readonly [string, string];
  /** Portal mix: the HSESSION id, invoice SerNrs for documents, lookup search texts. */
  readonly session?: string;
  readonly invoices?: readonly string[];
  readonly searches?: readonly string[];
}

function explain(err: unknown, what: string): LoadTargetError {
  if (isErpClientError(err)) {
    const e = err as Error & { kind: string; status?: number };
    if (e.kind === 'transport') return new LoadTargetError(`${what}: the target cannot be reached (${e.message})`);
    if (e.status === 401 || e.status === 403)
      return new LoadTargetError(`${what}: the target refused the credentials (HTTP ${e.status})`);
    return new LoadTargetError(`${what}: ${e.message}`);
  }
  return new LoadTargetError(`${what}: ${(err as Error)?.message ?? String(err)}`);
}

async function step<T>(what: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    throw explain(err, what);
  }
}

async function restCodes(erp: ErpClient, register: 'CUVc' | 'INVc' | 'AccVc', fields: string, limit: number) {
  const page = await step(`reading ${register}`, () =>
    erp.rest.list(register, { fields, limit } as never, { format: 'xml' }),
  );
  return page.records as unknown as Record<string, string>[];
}

/** Reads what `scenario` needs from the target; throws LoadTargetError when the target cannot serve it. */
export async function prepareScenario(scenario: ScenarioName, target: TargetRequests): Promise<ScenarioData> {
  const erp = target.client(scenario === 'portal-mix');
  try {
    if (scenario !== 'portal-mix') await step('GET /api/1/ (record-rest-api.md §4 "API root")', () => erp.rest.root());
    switch (scenario) {
      case 'invoices': {
        const contacts = await restCodes(erp, 'CUVc', 'Code,CUType', 100);
        const items = await restCodes(erp, 'INVc', 'Code,Terminated', 100);
        // CUType marks customers in real data; without it any contact is tried
        const customer = (contacts.find((c) => c.CUType === '1') ?? contacts[0])?.Code;
        const item = (items.find((i) => i.Terminated !== '1') ?? items[0])?.Code;
        if (!customer || !item) throw new LoadTargetError('the target has no contact or no item to invoice');
        return { customer, item };
      }
      case 'transactions':
      case 'sync': {
        const accounts = await restCodes(erp, 'AccVc', 'AccNumber,blockedFlag', 100);
        const open = accounts.filter((a) => a.blockedFlag !== '1' && a.AccNumber);
        if (open.length < 2) throw new LoadTargetError('the target has fewer than two open accounts (AccVc)');
        return { accounts: [open[0]!.AccNumber!, open[1]!.AccNumber!] };
      }
      case 'portal-mix': {
        const login = await step('portal login (portal-action-api.md §4 "Login")', () => erp.portal.login());
        const session = login.sessionId ?? erp.sessionId;
        if (!session) throw new LoadTargetError('the portal login opened no HSESSION session (§5): cannot reuse it');
        const invoices = await step('portal list IVVc', () => erp.portal.list('IVVc', { page: 1, perpage: 20 }));
        const items = await step('portal list INVc', () => erp.portal.list('INVc', { page: 1, perpage: 20 }));
        const sernrs = invoices.records.map((r) => (r as Record<string, string>).SerNr).filter(Boolean) as string[];
        const codes = items.records.map((r) => (r as Record<string, string>).Code).filter(Boolean) as string[];
        if (sernrs.length === 0 || codes.length === 0)
          throw new LoadTargetError('the portal lists no invoice (IVVc) or no item (INVc) to work with');
        // prefixes of real item codes: pastespecial matches case-insensitive prefixes (§4 rule 1)
        const searches = [...new Set(codes.flatMap((c) => [c.slice(0, 1), c.slice(0, 3), c]))];
        return { session, invoices: sernrs, searches };
      }
      default:
        return {};
    }
  } finally {
    erp.close();
  }
}
