import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

// Debian's Chromium for the browser tests (installed by .ci/run when missing), driven by
// playwright-core with a throwaway profile. Where it is absent the tests skip and say so.

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);

/**
 * The suite title, naming the skip and its remedy when Chromium is
 * absent (also warned, as the default reporter hides skipped names).
 */
export function browserSuiteTitle(what: string): string {
  if (chromiumAvailable) return what;
  const title = `${what} — SKIPPED: ${CHROMIUM} is not installed (apt-get install chromium; .ci/run does)`;
  console.warn(title);
  return title;
}

export interface HeadlessChromium {
  context: BrowserContext;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

export async function launchHeadlessChromium(
  options: { viewport?: { width: number; height: number } } = {},
): Promise<HeadlessChromium> {
  const profile = await mkdtemp(join(tmpdir(), 'fgw-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      ...options,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    return {
      context,
      async close() {
        await context.close();
        await rm(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}
