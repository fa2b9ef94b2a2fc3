import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's script, injected into a page (a browser context with `bypassCSP`: the pages' CSP allows no other script). */
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The rules of WCAG 2.2 AA (contract §21a) and axe's best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core's serious and critical findings on the page. */
export async function axe(page: Page): Promise<Violation[]> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async (tags) => {
    type Axe = { run(options: object): Promise<{ violations: Violation[] }> };
    const { axe } = window as unknown as { axe: Axe };
    return (await axe.run({ runOnly: { type: 'tag', values: tags } })).violations;
  }, AXE_TAGS);
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** The findings as lines: where, which rule, how bad, and on what. */
export const describeViolations = (where: string, violations: Violation[]) =>
  violations
    .map((v) => `${where}: ${v.id} (${v.impact}: ${v.help}) at ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`)
    .join('\n');
