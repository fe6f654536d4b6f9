/**
 * Planted secrets: unique random values for a target password, an API token and the hub secret, and a search for
 * them (and their base64, base64url, URL-encoded and HTTP Basic forms) in everything a hub shows or keeps. A test
 * plants them, goes through the hub's journeys, and hands every text it can read to {@link findPlanted}.
 */
import { randomBytes } from 'node:crypto';

export interface PlantedSecrets {
  readonly password: string;
  readonly token: string;
  readonly hubSecret: string;
}

/** Fresh values, each unlike any other text (a prefix a search can name, 24 random characters). */
export function plantSecrets(): PlantedSecrets {
  const v = (name: string) => `PLANTED${name}${randomBytes(18).toString('base64url')}`;
  return { password: v('pw'), token: v('tok'), hubSecret: v('hub') };
}

/** The forms a value may leak in: as is, URL-encoded, and base64/base64url at each of the three alignments. */
export function leakForms(value: string): { form: string; text: string }[] {
  const forms = [
    { form: 'plain', text: value },
    { form: 'url-encoded', text: encodeURIComponent(value) },
  ];
  // base64 of a value inside a longer text depends on its offset modulo 3: the stable middle of each alignment
  for (let offset = 0; offset < 3; offset++) {
    const bytes = Buffer.concat([Buffer.alloc(offset, 0x3a), Buffer.from(value, 'utf8')]);
    const skip = Math.ceil((offset * 4) / 3) + (offset > 0 ? 1 : 0);
    for (const enc of ['base64', 'base64url'] as const) {
      const text = bytes.toString(enc).replace(/=+$/, '').slice(skip, -3);
      if (text.length >= 16) forms.push({ form: `${enc} (offset ${offset})`, text });
    }
  }
  // one form per distinct text (a URL-safe value is its own URL encoding)
  return forms.filter((f, i) => forms.findIndex((g) => g.text === f.text) === i);
}

/** Where a planted value was found: `<source>: <which secret> as <form>`; empty when nowhere. */
export function findPlanted(
  sources: Readonly<Record<string, string | Buffer>>,
  secrets: Readonly<Record<string, string>>,
): string[] {
  const found: string[] = [];
  for (const [source, content] of Object.entries(sources)) {
    const texts = typeof content === 'string' ? [content] : [content.toString('utf8'), content.toString('latin1')];
    for (const [name, value] of Object.entries(secrets))
      for (const { form, text } of leakForms(value))
        if (texts.some((t) => t.includes(text))) found.push(`${source}: ${name} as ${form}`);
  }
  return [...new Set(found)];
}

/**
 * The hub's texts a planted-secret test reads, by name: `auditLog` is the audit log's raw table (`AuditLog.raw()`),
 * searched like the rest.
 */
export interface HubTexts {
  readonly pages: Readonly<Record<string, string>>;
  readonly api: Readonly<Record<string, string>>;
  readonly log: string;
  readonly storedFiles: Readonly<Record<string, Buffer>>;
  readonly database: Readonly<Record<string, Buffer>>;
  readonly auditLog?: string;
}

/** Flattens {@link HubTexts} into named sources for {@link findPlanted}. */
export function hubSources(t: HubTexts): Record<string, string | Buffer> {
  const prefixed = (p: string, r: Readonly<Record<string, string | Buffer>>) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [`${p} ${k}`, v]));
  return {
    ...prefixed('page', t.pages),
    ...prefixed('api', t.api),
    'hub log': t.log,
    ...prefixed('stored file', t.storedFiles),
    ...prefixed('database', t.database),
    ...(t.auditLog !== undefined ? { 'audit log': t.auditLog } : {}),
  };
}
