import { describe, expect, it } from 'vitest';
import { POSTGRES_URL_ENV, postgresUrl } from '../testing/test-databases.js';

// Under CI the store tests must also run on PostgreSQL: .ci/run starts a cluster and sets the URL.
describe('PostgreSQL for the store tests', () => {
  it.runIf(process.env.CI)(`is configured under CI (${POSTGRES_URL_ENV})`, () => {
    expect(postgresUrl, `${POSTGRES_URL_ENV} must be set under CI (packages/hub/scripts/test-postgres.sh)`).toMatch(
      /^postgres(ql)?:\/\//,
    );
  });
});
