import { attachmentHandlers } from './attachments/attachment-handlers.js';
import { callbackHandlers } from './callbacks/callback-handlers.js';
import { conversionHandlers } from './conversions/conversions.js';
import { documentHandlers } from './document/document-handlers.js';
import type { PortalHandler } from './handler.js';
import { kanbanHandlers } from './lists/kanban.js';
import { openItemHandlers } from './lists/open-items.js';
import { recordListHandlers } from './lists/record-lists.js';
import { lookupHandlers } from './lookup/paste-special.js';
import { deleteHandlers } from './records/delete-record.js';
import { postTextHandlers } from './records/post-text.js';
import { recordLinkHandlers } from './records/record-links.js';
import { rowHandlers } from './records/row-edit.js';
import { sessionHandlers } from './session/session-handlers.js';

/** Part A of the portal: session, record operations, documents, attachments, lookups, lists, conversions. */
export const recordHandlers: readonly PortalHandler[] = [
  ...sessionHandlers,
  ...deleteHandlers,
  ...rowHandlers,
  ...postTextHandlers,
  ...attachmentHandlers,
  ...recordLinkHandlers,
  ...lookupHandlers,
  ...recordListHandlers,
  ...openItemHandlers,
  ...kanbanHandlers,
  ...conversionHandlers,
  ...documentHandlers,
  ...callbackHandlers,
];
