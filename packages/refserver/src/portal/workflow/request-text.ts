import { hasForbiddenXmlChar } from '@erpcert/contract';
import type { PortalContext } from '../handler.js';
import { PortalError } from '../handler.js';

/** The longest comment or task description the reference server keeps (characters). */
export const MAX_TEXT = 100_000;

/**
 * The text of addcomment and settaskdescription. Their body shape is "not shown" (portal-action-api.md §4
 * rule 12); the reference server accepts (README "Activities and tasks"):
 *
 * - a form body (`application/x-www-form-urlencoded`) with one of the named fields;
 * - any other body (`text/plain` and the rest) as the text itself, UTF-8 (Latin-1 in quirks mode unless the
 *   request names UTF-8);
 * - no body: one of the named fields in the query.
 *
 * Returns undefined when none is there. Text XML cannot carry, or longer than MAX_TEXT, is refused.
 */
export function requestText(ctx: PortalContext, fields: readonly string[]): string | undefined {
  const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const fromParams = () => {
    for (const f of fields) {
      const v = ctx.params.get(f);
      if (v !== undefined) return v;
    }
    return undefined;
  };
  let text: string | undefined;
  if (type === 'application/x-www-form-urlencoded' || ctx.req.body.length === 0) text = fromParams();
  else text = ctx.req.body.toString(ctx.req.charset === 'latin1' ? 'latin1' : 'utf8');
  if (text === undefined) return undefined;
  text = text.replace(/\r\n?/g, '\n');
  if (hasForbiddenXmlChar(text)) throw new PortalError('the text holds control characters XML cannot carry');
  if (text.length > MAX_TEXT) throw new PortalError(`the text is longer than ${MAX_TEXT} characters`);
  return text;
}
