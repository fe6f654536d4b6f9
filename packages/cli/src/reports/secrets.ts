/**
 * The last line of defence for "passwords and session ids are read, never printed" (DESIGN.md
 * "Command-line contract"): the client masks exchanges, and every report text passes through
 * {@link scrubSecrets} before it is written.
 */

/** What replaces a secret. */
export const MASK = '***';

/**
 * The password of the embedded reference server when none is given (packages/refserver). It is printed in
 * the README and `erpcert serve --help`, so it is not a secret, and masking the word would garble every
 * report (it is also the tool's and the default user's name).
 */
export const PUBLIC_DEFAULT_PASSWORD = 'erpcert';

/** The forms in which a password can show up: as is, URL- and form-encoded, and inside a Basic credential. */
export function secretForms(user: string | undefined, password: string | undefined): string[] {
  if (password === undefined || password === '') return [];
  const forms = new Set<string>();
  if (password !== PUBLIC_DEFAULT_PASSWORD) {
    forms.add(password);
    forms.add(encodeURIComponent(password));
    forms.add(encodeURIComponent(password).replace(/%20/g, '+'));
    forms.add(new URLSearchParams({ p: password }).toString().slice(2)); // form bodies and URL.searchParams
  }
  if (user !== undefined) forms.add(Buffer.from(`${user}:${password}`, 'utf8').toString('base64'));
  return [...forms].filter((f) => f !== '').sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of every secret (longest first) with {@link MASK}. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s !== '') out = out.split(s).join(MASK);
  return out;
}

/** A writer that masks secrets in everything written through it (terminal output of a run). */
export function scrubbingWriter(
  out: { write(text: string): unknown },
  secrets: readonly string[],
): { write(text: string): boolean } {
  return {
    write(text: string) {
      out.write(scrubSecrets(text, secrets));
      return true;
    },
  };
}
