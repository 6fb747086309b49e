// Debian's Chromium (/usr/bin/chromium), driven by playwright-core: no browser download. With
// axe-core for the accessibility check, and a screenshot of each screen in .admin-screenshots/.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from '../support/service-process.js';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = join(ROOT, '.admin-screenshots');
const AXE_SOURCE = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // playwright makes a fresh, temporary user-data-dir for every launch.
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/** axe-core's serious and critical findings on the page as it is now (WCAG 2.1 A/AA and best practices). */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol: the page's CSP forbids inline scripts, rightly.
  await page.evaluate(AXE_SOURCE);
  // A string, run in the page: this file is compiled for Node, without the DOM's types.
  const violations = (await page.evaluate(`axe
    .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } })
    .then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })))`)) as Violation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** How far the page is wider than the window (0 when nothing scrolls sideways). */
export const overflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - window.innerWidth') as Promise<number>;
