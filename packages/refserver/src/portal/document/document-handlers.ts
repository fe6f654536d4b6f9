import { findUser } from '../access.js';
import type { PortalContext, PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { loadRecord } from '../records/record-ref.js';
import { getSetting, MAIL_FROM, MAIL_SERVER } from '../settings.js';
import { elementXml, okXml } from '../xml.js';
import { DOCUMENT_LANGUAGES, type DocumentLanguage } from './labels.js';
import { addToOutbox } from './outbox.js';
import { type RenderedDocument, renderDocument } from './render-document.js';
import { pickTemplate, templatesOf } from './templates.js';

/** The document language: `language`, else the one of `portalcc`, else English (README "Documents"). */
function languageOf(ctx: PortalContext): DocumentLanguage {
  return ctx.params.oneOf('language', DOCUMENT_LANGUAGES) ?? ctx.portalcc ?? 'eng';
}

/**
 * `action=document&register=<R>&id=<SerNr>[&doccode=<template>][&language=est|lat|eng]`: a PDF generated
 * from the record, base64 in `<data><file><name/><base64/></file></data>` (§2 "Document").
 */
const documentAction: PortalHandler = {
  kind: 'action',
  name: 'document',
  registers: { operation: 'document', param: 'register' },
  required: ['id'],
  handle(ctx) {
    const register = ctx.register!;
    const lang = languageOf(ctx);
    const ref = loadRecord(ctx, register, ctx.params.require('id'));
    // no printout (SVOVc, WSVc; specs/observed-fields.yaml `printout: false`): 200 with an empty file, not an error
    if (ctx.app.store.schema(register)?.behaviour?.printout === false)
      return { xml: '<data><file><name/><base64/></file></data>\n' };
    const template = pickTemplate(ctx.app.store, ctx.company, register, ctx.params.get('doccode') || undefined);
    const doc = renderDocument(ctx.app.store, ctx.company, register, ref.rec, template, lang, ctx.app.now());
    return {
      xml: `<data><file>${elementXml('name', doc.name)}${elementXml('base64', doc.pdf.toString('base64'))}</file></data>\n`,
    };
  },
};

/**
 * `action=action&register=sendemail&regname=<IVVc|ORVc|QTVc>&id=<SerNr>[&usercode=]`: e-mails the record's
 * document to the customer. It needs an e-mail address on the customer, mail settings (mail.from and
 * mail.server) and a document template (§4 rule 5); without them the errstr names every one missing. The
 * mail, with the PDF, goes to the outbox (`GET /erpcert/outbox`), README "sendemail and the outbox".
 */
const sendemail: PortalHandler = {
  kind: 'sub-action',
  name: 'sendemail',
  registers: { operation: 'sendemail', param: 'regname' },
  required: ['id'],
  handle(ctx) {
    const register = ctx.register!;
    const store = ctx.app.store;
    const user = ctx.usercode ? findUser(store, ctx.company, ctx.usercode) : undefined;
    if (ctx.usercode && !user)
      throw new PortalError(`usercode "${ctx.usercode}" is not a user of company ${ctx.company}`);
    const ref = loadRecord(ctx, register, ctx.params.require('id'));
    const custCode = ref.rec.fields.CustCode ?? '';
    const customer = custCode ? store.get('CUVc', ctx.company, [custCode])?.fields : undefined;
    const to = customer?.eMail ?? '';
    const from = getSetting(store, ctx.company, MAIL_FROM) ?? '';
    const server = getSetting(store, ctx.company, MAIL_SERVER) ?? '';
    const missing: string[] = [];
    if (to === '')
      missing.push(custCode ? `no e-mail address on customer ${custCode}` : `${register} ${ref.id} has no customer`);
    if (from === '' || server === '')
      missing.push(`no mail settings (mail.from, mail.server) in company ${ctx.company}`);
    if (templatesOf(store, ctx.company, register).length === 0) missing.push(`no document template for ${register}`);
    if (missing.length > 0) throw new PortalError(`cannot send ${register} ${ref.id}: ${missing.join('; ')}`);
    const template = pickTemplate(store, ctx.company, register, undefined);
    const doc: RenderedDocument = renderDocument(
      store,
      ctx.company,
      register,
      ref.rec,
      template,
      languageOf(ctx),
      ctx.app.now(),
    );
    addToOutbox(store, {
      company: ctx.company,
      created: ctx.app.now().toISOString(),
      from: user?.emailAddr || from,
      to,
      subject: doc.title,
      body: `${customer?.Name ?? ''},\n\nplease find ${doc.title} attached.\n\n${store.companies().find((c) => c.code === ctx.company)?.name ?? ''}\n`,
      register,
      recordId: ref.id,
      usercode: user?.Code ?? '',
      attachmentName: doc.name,
      attachment: doc.pdf,
    });
    return { xml: okXml() };
  },
};

export const documentHandlers: readonly PortalHandler[] = [documentAction, sendemail];
