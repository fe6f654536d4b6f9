/**
 * Debian's chromium for the hub's browser tests (`apt-get install -y chromium`; .ci/run installs it), driven by
 * playwright-core: no browser is downloaded. Under CI a browser test fails without it; elsewhere it skips.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Headless flags for this machine: without the background-networking ones Chromium dials hosts it cannot reach. */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Why a browser test skips here, or undefined when it runs (always under CI, where a missing chromium fails it). */
export const chromiumMissing: string | undefined =
  existsSync(CHROMIUM) || process.env.CI ? undefined : `${CHROMIUM} is not installed (apt-get install -y chromium)`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}
