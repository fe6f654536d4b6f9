/**
 * Where the hub's OpenAPI document is: `specs/hub.openapi.yaml`, beside the ERP's specs but not part of their
 * contract (the contract's `isContractFile` leaves it out of a run's spec SHA-256). The tests hold the API to it, and
 * `pnpm bench` runs Schemathesis over it.
 */
import { join } from 'node:path';
import { specsDir } from '@erpcert/contract';

export const HUB_OPENAPI: string = join(specsDir, 'hub.openapi.yaml');
