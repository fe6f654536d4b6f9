/**
 * The certification badge of one implementation, an SVG in the usual two-part shape ("erpcert" | "certified …").
 * Every text in it (the implementation's name is user input) goes through the project's one XML escaper; the SVG
 * holds no script, no link and no reference to anything outside it.
 */
import { escapeXml } from '@erpcert/contract';
import type { CertifiedRun } from './certification-store.js';

const LEFT = 'erpcert';
const CERTIFIED_COLOUR = '#2e7d32';
const ABSENT_COLOUR = '#6b7280';

/** Width of a text at 11px Verdana, roughly (a badge is read, not typeset); long texts are cut. */
function textWidth(s: string): number {
  return Math.round([...s].length * 6.6) + 10;
}

function cut(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`;
}

function svg(right: string, colour: string, title: string): string {
  const l = textWidth(LEFT);
  const r = textWidth(right);
  const w = l + r;
  const t = escapeXml(title);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${t}">
<title>${t}</title>
<rect width="${l}" height="20" fill="#555"/>
<rect x="${l}" width="${r}" height="20" fill="${colour}"/>
<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">
<text x="${l / 2}" y="14">${LEFT}</text>
<text x="${l + r / 2}" y="14">${escapeXml(right)}</text>
</g>
</svg>
`;
}

/** The badge of the implementation's newest certified run. */
export function certifiedBadge(c: CertifiedRun): string {
  const right = cut(`certified ${c.version ?? ''}`.trim(), 40);
  return svg(
    right,
    CERTIFIED_COLOUR,
    `${c.name}${c.version ? ` ${c.version}` : ''}: erpcert certified by ${c.certifier.name} on ${c.certifiedAt.slice(0, 10)} (${c.passed} of ${c.rules} rules PASS)`,
  );
}

/** The badge of an implementation with no certified run. */
export function absentBadge(): string {
  return svg('not certified', ABSENT_COLOUR, 'erpcert: not certified');
}
