import { hasForbiddenXmlChar } from '@erpcert/contract';
import { parseForm } from '../../http/form-body.js';
import type { PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { okXml } from '../xml.js';
import { assertUnlocked, loadRecord } from './record-ref.js';

const FIELD = 'set_field.Math';

/**
 * `POST action=posttext&register=<MailVc|EPOrderDocVc>&id=<SerNr>` with a form body `set_field.Math=<text
 * or HTML>` (portal-action-api.md §4 "Post text"): stores the text in the record's Math field. The body
 * must be form-encoded and carry set_field.Math and nothing else of the set_field kind.
 */
const postText: PortalHandler = {
  kind: 'action',
  name: 'posttext',
  methods: ['POST'],
  registers: { operation: 'posttext', param: 'register' },
  required: ['id'],
  handle(ctx) {
    const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded')
      throw new PortalError(`posttext takes a form-encoded body (application/x-www-form-urlencoded) with ${FIELD}`);
    const pairs = parseForm(ctx.req.body, ctx.req.charset);
    const other = pairs.find(([n]) => n.startsWith('set_') && n !== FIELD);
    if (other) throw new PortalError(`posttext sets only ${FIELD}; the body also has ${other[0]}`);
    const values = pairs.filter(([n]) => n === FIELD).map(([, v]) => v);
    if (values.length === 0) throw new PortalError(`missing required body field "${FIELD}"`);
    if (values.length > 1) throw new PortalError(`body field "${FIELD}" is given ${values.length} times`);
    if (hasForbiddenXmlChar(values[0]!)) throw new PortalError(`${FIELD} holds a control character XML cannot carry`);
    const register = ctx.register!;
    const id = ctx.params.require('id');
    const store = ctx.app.store;
    store.write(() => {
      const ref = loadRecord(ctx, register, id);
      assertUnlocked(ctx, ref);
      const fields: Record<string, string> = { ...ref.rec.fields, Math: values[0]! };
      delete fields.ServerSequence;
      store.update(register, ref.rec, { fields, rows: ref.rec.rows });
    });
    return { xml: okXml() };
  },
};

export const postTextHandlers: readonly PortalHandler[] = [postText];
