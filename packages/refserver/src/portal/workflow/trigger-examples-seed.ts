import type { RecordStore } from '../../store/record-store.js';
import { DEFAULT_TEXT_TEMPLATES } from './workflow-config.js';

/** The demo machine with a cash drawer (workflow-seed.ts sets `machine.POS1.drawer`). */
export const DEMO_MACHINE = { name: 'POS1', drawer: 'DRAWER-1' } as const;

/**
 * Demo records that use the configured machine, recipe and text template, the way an ERP's data shows what its
 * configuration holds: the first invoice was made on machine POS1 (with its drawer), the first order row with an
 * item loaded recipe KIT1, the first activity's row loaded text template CALLBACK. The docs name no register of
 * machines, recipes or text templates (§2 "Field-trigger catalogue"), so a client finds them only in such data.
 * Each record keeps its other fields; one already using the field is left alone.
 */
export function seedTriggerExamples(store: RecordStore, company: number): void {
  const first = (register: string) => {
    const serNr = store.db
      .prepare(`SELECT SerNr FROM "reg_${register}" WHERE _company = ? ORDER BY SerNr LIMIT 1`)
      .pluck()
      .get(company) as string | number | undefined;
    return serNr === undefined ? undefined : store.get(register, company, [String(serNr)]);
  };
  const invoice = first('IVVc');
  if (invoice && !invoice.fields.MachineName)
    store.update('IVVc', invoice, {
      fields: { ...invoice.fields, MachineName: DEMO_MACHINE.name, DrawerCode: DEMO_MACHINE.drawer },
      rows: invoice.rows,
    });
  const order = first('ORVc');
  const itemRow = order?.rows.findIndex((r) => (r.ArtCode ?? '') !== '') ?? -1;
  if (order && itemRow >= 0 && !order.rows.some((r) => r.Recepy))
    store.update('ORVc', order, {
      fields: order.fields,
      rows: order.rows.map((r, i) => (i === itemRow ? { ...r, Recepy: 'KIT1' } : r)),
    });
  const activity = first('ActVc');
  if (activity && activity.rows.length === 0)
    store.update('ActVc', activity, {
      fields: activity.fields,
      rows: [{ TextCode: 'CALLBACK', Text: DEFAULT_TEXT_TEMPLATES.CALLBACK ?? '' }],
    });
}
