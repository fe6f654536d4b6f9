/**
 * What was typed in a sign-in's email field is the user's text, and sometimes their password typed in the wrong
 * field. The audit log keeps it only when it is an account's email or shaped like an address (trimmed, lower case, at
 * most 254 characters: RFC 5321's path limit less its brackets); anything else is written as
 * {@link NOT_AN_ADDRESS}, and the throttle counts it under a key that is not the text (sign-in-throttle.ts
 * `accountKey`).
 */

/** A local part of the usual characters, a domain of labels and a top-level domain of letters (WHATWG's, stricter). */
const ADDRESS = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export const MAX_ADDRESS_LENGTH = 254;

/** How the audit log names a sign-in whose email field held something else. */
export const NOT_AN_ADDRESS = 'anonymous (not an email address)';

/** The email field as the sign-in reads it: trimmed, lower case, bounded (a longer value is no address). */
export function typedEmail(raw: unknown): string {
  return typeof raw === 'string' ? raw.trim().toLowerCase().slice(0, 320) : '';
}

/** Whether a typed value (as {@link typedEmail} gives it) is shaped like an email address. */
export function looksLikeAddress(typed: string): boolean {
  return typed.length <= MAX_ADDRESS_LENGTH && ADDRESS.test(typed);
}
