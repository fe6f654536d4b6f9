/**
 * Who is looking at a page, for the frame every page shares (layout.ts): the signed-in user's email, organisations
 * and the session's CSRF token (the sign-out form carries it). Set once per request by the pages' middleware
 * (AsyncLocalStorage), so that the page builders need no new parameter.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Membership } from '../auth/actor.js';

export interface PageViewer {
  readonly email: string;
  readonly memberships: readonly Membership[];
  /** An operator of the whole hub: the navigation links to the organisations it manages. */
  readonly hubAdmin?: boolean;
  /** The session's CSRF token: every form of the page carries it. */
  readonly csrf: string;
}

const storage = new AsyncLocalStorage<PageViewer | undefined>();

export function withViewer<T>(viewer: PageViewer | undefined, fn: () => T): T {
  return storage.run(viewer, fn);
}

export function currentViewer(): PageViewer | undefined {
  return storage.getStore();
}
