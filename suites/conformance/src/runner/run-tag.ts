import { randomInt } from 'node:crypto';

/**
 * A run tag: `EC` and four base-36 characters (`EC4K2Q`). Every record a run creates carries it (a code
 * prefix or a comment), so that its records can be told apart on a shared staging ERP (DESIGN.md
 * "Running against somebody's staging ERP"). Short, because code fields of real registers are short.
 */
export function newRunTag(random: (max: number) => number = randomInt): string {
  let tag = 'EC';
  for (let i = 0; i < 4; i++) tag += random(36).toString(36).toUpperCase();
  return tag;
}

/** What a run tag looks like. */
export const RUN_TAG_PATTERN = /^EC[0-9A-Z]{4}$/;
