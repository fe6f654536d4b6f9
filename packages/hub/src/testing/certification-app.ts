/**
 * A hub app with the certification routes behind the request authentication, over a test store with an injected
 * clock, and the people of the certification tests: a vendor engineer and viewer, a certifier and an admin of the
 * certifying body, and an engineer of a third organisation. Each signs in by a session opened in the database (the
 * link of the sign-in pages spent at once); `as(person)` gives its cookie and CSRF header.
 */
import { createHubApp } from '../api/hub-app.js';
import type { Role } from '../auth/actor.js';
import { type HubAuth, hubAuth } from '../auth/hub-auth.js';
import { csrfTokenOf, SESSION_COOKIE } from '../auth/sessions.js';
import { type CertificationServices, certificationServices } from '../certification/services.js';
import type { HubStore } from '../store/hub-store.js';
import { type CertificationFixture, seedCertification } from './certification-fixture.js';

export type Person = 'engineer' | 'viewer' | 'certifier' | 'bodyAdmin' | 'outsider';

export interface CertificationApp {
  readonly app: ReturnType<typeof createHubApp>;
  readonly auth: HubAuth;
  readonly services: CertificationServices;
  readonly fixture: CertificationFixture;
  readonly secrets: Readonly<Record<Person, string>>;
  /** The headers of a person's browser: its session cookie and the CSRF token of its forms. */
  as(person: Person): Record<string, string>;
  /** Moves the clock on. */
  advance(ms: number): void;
}

export async function certificationApp(
  store: HubStore,
  start = '2026-11-27T12:00:00.000Z',
  log: (line: string) => void = () => {},
): Promise<CertificationApp> {
  let now = new Date(start).getTime();
  const clock = () => new Date(now);
  const auth = hubAuth(store.db, { now: clock, scrypt: { N: 1024, r: 8, p: 1 } });
  const fixture = await seedCertification(store, clock);
  const outsiders = await auth.accounts.createOrganisation('outsider', 'Outsider');
  const people: Record<Person, [string, number, Role]> = {
    engineer: ['eng@vendor.example', fixture.vendor, 'engineer'],
    viewer: ['viewer@vendor.example', fixture.vendor, 'viewer'],
    certifier: ['certifier@body.example', fixture.body, 'certifier'],
    bodyAdmin: ['admin@body.example', fixture.body, 'admin'],
    outsider: ['eng@outsider.example', outsiders.id, 'engineer'],
  };
  const secrets = {} as Record<Person, string>;
  for (const [person, [email, org, role]] of Object.entries(people) as [Person, [string, number, Role]][]) {
    const user = await auth.accounts.createUser(email);
    await auth.accounts.setMembership(user.id, org, role);
    secrets[person] = (await auth.sessions.open(user.id, 'link')).secret;
  }
  const services = certificationServices(store, { now: clock, audit: auth.audit });
  // the hub's own app, on the test's clock: its accounts, sessions and audit log are these
  const app = createHubApp({ store, auth, log, certification: services });
  return {
    app,
    auth,
    services,
    fixture,
    secrets,
    as: (person) => ({
      cookie: `${SESSION_COOKIE}=${secrets[person]}`,
      'x-csrf-token': csrfTokenOf(secrets[person]),
    }),
    advance: (ms) => {
      now += ms;
    },
  };
}
