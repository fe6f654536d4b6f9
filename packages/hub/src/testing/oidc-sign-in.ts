/**
 * Drives a sign-in through the test provider's development pages by HTTP, as a browser would: the hub's /start, the
 * provider's login form (any password), its consent form, up to the redirect back to the hub's callback, which is
 * answered, not followed, so that a test can replay or tamper with it.
 */
import { CALLBACK_PATH, START_PATH } from '../auth/oidc/oidc-settings.js';
import type { CookieBrowser, Seen } from './cookie-browser.js';

const atCallback = (next: URL) => next.pathname === CALLBACK_PATH;

/** The first form's action on a page, absolute. */
export function formAction(page: Seen): string {
  const action = /<form[^>]*\baction="([^"]+)"/.exec(page.body)?.[1];
  if (!action) throw new Error(`no form on ${page.url} (status ${page.status}): ${page.body.slice(0, 300)}`);
  return new URL(action.replace(/&amp;/g, '&'), page.url).href;
}

/** Where the hub's /start sends the browser (the authorization request), not followed. */
export async function startAt(b: CookieBrowser, hub: string, returnTo?: string): Promise<URL> {
  const start = await b.request(`${hub}${START_PATH}${returnTo ? `?return=${encodeURIComponent(returnTo)}` : ''}`);
  const location = start.headers.get('location');
  if (start.status !== 302 || !location)
    throw new Error(`/start answered ${start.status}: ${start.body.slice(0, 300)}`);
  return new URL(location);
}

/**
 * From an authorization request to the provider's redirect back: signs in as `login`, consents (`deny` cancels at the
 * login page instead), and answers the callback URL the provider sent the browser to.
 */
export async function throughProvider(
  b: CookieBrowser,
  authorizationUrl: URL,
  login: string,
  o: { readonly deny?: boolean } = {},
): Promise<URL> {
  let seen = await b.follow(authorizationUrl.href, atCallback);
  for (let step = 0; step < 4; step++) {
    const location = seen.headers.get('location');
    if (seen.status >= 300 && seen.status < 400 && location) return new URL(location, seen.url);
    if (o.deny) {
      seen = await b.follow(`${formAction(seen)}/abort`, atCallback);
      continue;
    }
    const prompt = /name="prompt" value="(login|consent)"/.exec(seen.body)?.[1];
    if (!prompt) throw new Error(`unexpected page at ${seen.url} (status ${seen.status}): ${seen.body.slice(0, 300)}`);
    const form: Record<string, string> =
      prompt === 'login' ? { prompt, login, password: 'any password will do' } : { prompt };
    seen = await b.follow(formAction(seen), atCallback, { form });
  }
  throw new Error(`the provider did not send ${login} back to the hub`);
}

/** A whole sign-in up to the callback URL (not yet requested). */
export async function signInAt(b: CookieBrowser, hub: string, login: string, returnTo?: string): Promise<URL> {
  return throughProvider(b, await startAt(b, hub, returnTo), login);
}
