import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium (`apt-get install -y chromium`; .ci/run installs it). */
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

/**
 * Whether a browser test skips: only where chromium is not installed and this is not CI. Under `CI=1` the
 * test runs, and fails without it.
 */
export const skipWithoutChromium: boolean = !existsSync(CHROMIUM) && process.env.CI !== '1';

/** Launches Debian's chromium headless through playwright-core. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}
