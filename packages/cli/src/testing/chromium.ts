/**
 * Debian's chromium for the CLI's browser tests: the hub's one launcher (playwright-core, no browser download, the
 * same headless flags), so the two packages' browser tests run the same browser the same way.
 */
import { chromiumMissing } from '../../../hub/src/testing/chromium.js';

export { CHROMIUM, launchChromium } from '../../../hub/src/testing/chromium.js';

/**
 * Whether a browser test skips: only where chromium is not installed and this is not CI. Under CI the test runs,
 * and fails without it.
 */
export const skipWithoutChromium: boolean = chromiumMissing !== undefined;
