import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { recordBrowserTrouble, signInViaUi } from './support/session';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { apiLogin, createApprovedTemplate, importContacts, signUpViaApi } from '../test-support/business';

// In Chromium: the templates list's 'Sorted by' with search, 'Watch Tutorial' and
// 'Refresh from Meta'; the breadcrumb's names; then the dark theme, switched on as a user would (Other
// Settings), on every screen at 1440 px: a screenshot each and every visible text's contrast with what is
// behind it measured from computed styles (WCAG AA: 4.5:1, 3:1 for large text).

const PASSWORD = 'correct horse battery';
// Created in this order, each approved before the next: 'Latest' is the reverse, 'Name' A to Z.
const CREATED = ['mango_deal', 'apple_news', 'zebra_offer', 'kiwi_deal'];

let stack: StackView;
let browser: Browser;
let page: Page;
let trouble: string[];
let token: string;
let templateIds: number[] = [];
let broadcastId: number;

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${stack.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

beforeAll(async () => {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  stack = await sharedStack({ SANDBOX_REVIEW_DELAY_MS: '300', SANDBOX_US_MARKETING_RULE: 'false' });
  await signUpViaApi(stack, 'look@shop.test', PASSWORD, 'Look Shop');
  token = await apiLogin(stack, 'look@shop.test', PASSWORD);
  await importContacts(stack, token, 'name,number\nAda,+16285554000\nGrace,+16285554001\n', 'VIP');
  templateIds = [];
  for (const name of CREATED) {
    templateIds.push(
      await createApprovedTemplate(stack, token, {
        name,
        language: 'en_US',
        category: 'MARKETING',
        components: [{ type: 'BODY', text: `Hello {{1}}, ${name.replace('_', ' ')} is here.` }],
        dynamic_variables: { body_variable: { '1': 'name' } },
      }),
    );
  }
  const created = await api<{ id: number }>('/broadcast/create/', {
    method: 'POST',
    body: JSON.stringify({
      name: 'Look launch',
      template_id: templateIds[0],
      recipients: { type: 'all', percentage: 100 },
    }),
  });
  broadcastId = created.id;
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  page.setDefaultTimeout(20_000);
  trouble = recordBrowserTrouble(page);
  await signInViaUi(page, stack, 'look@shop.test', PASSWORD);
});

afterEach(async (context) => {
  if (context.task.result?.state !== 'fail') return;
  console.log(`stack output:\n${stack.output().slice(-4000)}`);
  console.log(`browser log:\n${trouble.join('\n')}`);
});

afterAll(async () => {
  await browser?.close();
});

/** The template names in the table, top to bottom. */
async function shownNames(): Promise<string[]> {
  return page.locator('tbody tr td:first-child a').allInnerTexts();
}

async function sortBy(label: string, expected: string[]) {
  await page.getByRole('combobox', { name: 'Sorted by' }).selectOption({ label });
  await expect.poll(shownNames, { timeout: 10_000 }).toEqual(expected);
}

describe('templates list in Chromium', () => {
  it('sorts by Latest, Oldest and Name, together with the search; the breadcrumb names the screens', async () => {
    await page.goto(`${stack.url}/template`);
    await expect.poll(shownNames, { timeout: 10_000 }).toEqual([...CREATED].reverse());
    expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).innerText()).toMatch(
      /^Home\s*Templates$/,
    );

    await sortBy('Name', [...CREATED].sort());
    await sortBy('Oldest', CREATED);
    await sortBy('Latest', [...CREATED].reverse());

    const search = page.getByRole('searchbox', { name: 'Search templates' });
    await search.fill('deal');
    await search.press('Enter');
    await expect.poll(shownNames).toEqual(['kiwi_deal', 'mango_deal']);
    await sortBy('Oldest', ['mango_deal', 'kiwi_deal']);
    await sortBy('Name', ['kiwi_deal', 'mango_deal']);
    await page.getByText('Showing 2 of 2 templates').waitFor();

    await page.getByRole('link', { name: 'kiwi_deal', exact: true }).click();
    await page.waitForURL(`${stack.url}/templates/${templateIds[3]}`);
    const crumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect.poll(() => crumb.innerText()).toMatch(/^Home\s*Templates\s*kiwi_deal$/);
    await crumb.getByRole('link', { name: 'Templates' }).click();
    await page.waitForURL(`${stack.url}/template`);
  });

  it("'Watch Tutorial' opens the guide and 'Refresh from Meta' re-reads the statuses", async () => {
    await page.goto(`${stack.url}/template`);
    await page.getByRole('button', { name: 'Watch Tutorial' }).click();
    const dialog = page.getByRole('dialog', { name: 'How templates work' });
    await dialog.waitFor();
    expect(await dialog.getByRole('listitem').count()).toBeGreaterThanOrEqual(4);
    await dialog.getByRole('button', { name: 'Got it' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Refresh from Meta' }).click();
    await page.getByText('Templates are up to date with Meta.').first().waitFor();
  });
});

/**
 * Every visible text of the page whose contrast with what is drawn behind it is below WCAG AA, measured in
 * the page: colours are resolved by painting them on a canvas (computed styles may be oklch or color-mix),
 * backgrounds composited from <html> down. Disabled controls are exempt (WCAG 1.4.3).
 */
function lowContrastTexts(): Promise<
  Array<{ text: string; ratio: number; color: string; background: string }>
> {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    const paint = (colors: string[]): [number, number, number] => {
      context.globalCompositeOperation = 'source-over';
      context.fillStyle = '#fff';
      context.fillRect(0, 0, 1, 1);
      for (const color of colors) {
        context.fillStyle = color;
        context.fillRect(0, 0, 1, 1);
      }
      const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!];
    };
    const luminance = ([r, g, b]: [number, number, number]) => {
      const channel = (v: number) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const ratio = (a: [number, number, number], b: [number, number, number]) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (hi + 0.05) / (lo + 0.05);
    };
    const failures: Array<{ text: string; ratio: number; color: string; background: string }> = [];
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const own = [...element.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      if (!own) continue;
      const rect = element.getBoundingClientRect();
      if (rect.width < 2 || rect.height < 2) continue; // screen-reader-only text
      const style = getComputedStyle(element);
      if (style.visibility !== 'visible' || element.closest('[disabled], [aria-disabled="true"], [inert]'))
        continue;
      const chain: string[] = [];
      let opaque = true;
      for (let node: HTMLElement | null = element; node; node = node.parentElement) {
        const s = getComputedStyle(node);
        if (Number(s.opacity) < 1) opaque = false;
        chain.unshift(s.backgroundColor);
      }
      if (!opaque) continue;
      const background = paint(chain);
      const foreground = paint([...chain, style.color]);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const value = ratio(foreground, background);
      if (value < (large ? 3 : 4.5))
        failures.push({
          text: element.innerText.trim().slice(0, 40),
          ratio: Math.round(value * 100) / 100,
          color: style.color,
          background: `rgb(${background.join(',')})`,
        });
    }
    return failures;
  });
}

/** Body text on the page's own background, the figure the issue asks for. */
function bodyContrast(): Promise<number> {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    const rgb = (color: string) => {
      context.fillStyle = '#fff';
      context.fillRect(0, 0, 1, 1);
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    };
    const lum = (c: number[]) =>
      c
        .map((v) => v / 255)
        .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
        .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
    const main = document.querySelector('main') ?? document.body;
    const style = getComputedStyle(document.body);
    const text = lum(rgb(getComputedStyle(main).color));
    const back = lum(rgb(style.backgroundColor));
    return (Math.max(text, back) + 0.05) / (Math.min(text, back) + 0.05);
  });
}

/** The luminance of an element's own (opaque) background: dark below 0.2, white is 1. */
function backgroundLuminance(locator: ReturnType<typeof page.locator>): Promise<number> {
  return locator.evaluate((element) => {
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    context.fillStyle = getComputedStyle(element).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = [...context.getImageData(0, 0, 1, 1).data].map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  });
}

async function look(name: string) {
  // Settle: no spinner, the screen's own request answered.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/dark-${name}.png`, fullPage: true });
  expect(await bodyContrast(), `${name}: body text on the page`).toBeGreaterThanOrEqual(4.5);
  expect(await lowContrastTexts(), `${name}: texts below WCAG AA`).toEqual([]);
}

describe('dark theme in Chromium', () => {
  it("'Enable Dark Theme for Dashboard' turns every screen dark and readable", async () => {
    await page.goto(`${stack.url}/settings`);
    await page.getByRole('tab', { name: 'Other Settings' }).click();
    await page.getByLabel('Enable Dark Theme for Dashboard').check();
    await page.getByRole('tabpanel').getByRole('button', { name: /^Save/ }).click();
    await expect
      .poll(() => page.evaluate(() => document.documentElement.classList.contains('dark')))
      .toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('dark');
    // The save's toast is dark too (react-hot-toast's own colours are a white card).
    // (The toast's message carries role="status" with aria-live="off"; its card, the parent, has the colours.)
    const toastCard = page
      .locator('[role="status"][aria-live="off"]', { hasText: 'Other Settings saved' })
      .locator('..');
    await toastCard.waitFor();
    expect(await backgroundLuminance(toastCard)).toBeLessThan(0.2);
    await look('settings-other');

    const screens: Array<[string, string, string]> = [
      ['dashboard', '/dashboard', 'Dashboard'],
      ['customers', '/customers', 'Customers'],
      ['templates', '/template', 'Your Templates'],
      ['create-template', '/template/create-template', 'Create Template'],
      ['edit-template', `/templates/${templateIds[0]}`, 'Edit Template'],
      ['broadcast-history', '/broadcast', 'Broadcast History'],
      ['new-broadcast', '/broadcast/new', 'New Broadcast'],
      ['delivery-report', `/broadcast/${broadcastId}`, 'Delivery Report'],
      ['numbers', '/number', 'WhatsApp Numbers'],
      ['settings', '/settings', 'Settings'],
    ];
    for (const [name, path] of screens) {
      await page.goto(`${stack.url}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await look(name);
    }
    // The template's JSON preview stays a dark code block.
    await page.goto(`${stack.url}/template/create-template`);
    expect(await backgroundLuminance(page.getByLabel('Template payload JSON'))).toBeLessThan(0.2);

    // A dialog, and a preview with a message in it.
    await page.goto(`${stack.url}/template`);
    await page.getByRole('button', { name: 'Watch Tutorial' }).click();
    await page.getByRole('dialog').waitFor();
    await look('tutorial-dialog');
    await page.keyboard.press('Escape');
    await page.goto(`${stack.url}/broadcast/new`);
    await page.getByLabel('Message Template').selectOption({ label: 'kiwi_deal (en_US)' });
    await page.getByText('kiwi deal is here.').first().waitFor();
    await look('new-broadcast-preview');

    // Signed out there is no account and so no saved theme; the class alone turns the sign-in screen dark.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.evaluate(() => {
      document.documentElement.classList.add('dark');
      document.documentElement.style.colorScheme = 'dark';
    });
    await look('sign-in');
  });
});
