import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOT_DIR } from './support/browser';
import { signInViaUi } from './support/session';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { apiLogin, createApprovedTemplate, importContacts, signUpViaApi } from '../test-support/business';

/**
 * At 390 × 844 every screen works. Each table keeps its status and actions inside the viewport,
 * the template and broadcast previews are one tap away from their forms, the settings tab strip shows that it
 * scrolls, dialogs fit, and no screen scrolls sideways. Screenshots land in
 * test-results/screenshots/phone-layout-*.png.
 */
const EMAIL = 'phone@herald.test';
const PASSWORD = 'Phone layout pass 1';
const WIDTH = 390;
const HEIGHT = 844;

let stack: StackView;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let reportPath = '';

async function shoot(name: string) {
  await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-layout-${name}.png`, fullPage: true });
}

/** How many pixels the page is wider than the viewport (0 when nothing scrolls sideways). */
function overflow(): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

async function open(route: string) {
  await page.goto(`${stack.url}${route}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page
    .getByText('Loading…')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
}

/**
 * The horizontal extent of the first body row's cells under the named columns, found by the header's text (so
 * the check holds whatever the layout: stacked rows, a pinned column or columns that fit).
 */
async function cellExtents(columns: string[]) {
  await page.locator('table tbody tr:not([data-testid="skeleton-row"]) td').first().waitFor();
  return page.evaluate((wanted) => {
    // The page's list is its last table (the Dashboard's charts come first).
    const table = [...document.querySelectorAll('main table')].at(-1);
    if (!table) return [];
    const names = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
    const row = table.querySelector('tbody tr');
    return wanted.map((column) => {
      const cell = row?.children[names.indexOf(column)];
      const box = cell?.getBoundingClientRect();
      // Every control inside the cell must be reachable too, not only the cell's start.
      const controls = [...(cell?.querySelectorAll('a, button') ?? [])].map((control) => {
        const rect = control.getBoundingClientRect();
        return { left: rect.left, right: rect.right };
      });
      return {
        column,
        found: Boolean(cell),
        left: box?.left ?? -1,
        right: box?.right ?? Infinity,
        controls,
      };
    });
  }, columns);
}

beforeAll(async () => {
  stack = await sharedStack();
  browser = await launchBrowser();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await signUpViaApi(stack, EMAIL, PASSWORD, 'Crumb & Co Bakery');
  const token = await apiLogin(stack, EMAIL, PASSWORD);
  await importContacts(
    stack,
    token,
    'name,whatsapp_number,address,email\n' +
      'Ada Lovelace,+447911123401,"12 St James\'s Square, London",ada@example.com\n' +
      'Alan Turing,+447911123402,Bletchley Park,alan@example.com\n',
    'regulars',
  );
  const templateId = await createApprovedTemplate(stack, token, {
    name: 'pocket_welcome',
    language: 'en_US',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Hello {{1}}, your bread is ready.' }],
    dynamic_variables: { body_variable: { '1': 'name' } },
  });
  const create = (body: object) =>
    fetch(`${stack.url}/broadcast/create/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        template_id: templateId,
        recipients: { type: 'all', percentage: 100 },
        ...body,
      }),
    });
  const sent = await create({ name: 'Morning loaves' });
  if (sent.status !== 201) throw new Error(`broadcast failed: ${await sent.text()}`);
  reportPath = `/broadcast/${((await sent.json()) as { id: number }).id}`;
  // A scheduled one too: its row has an action button (Cancel) whose place the test checks.
  const later = await create({
    name: 'Weekend special',
    scheduled_time: Math.floor(Date.now() / 1000) + 7 * 24 * 3600,
  });
  if (later.status !== 201) throw new Error(`scheduled broadcast failed: ${await later.text()}`);

  context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT }, hasTouch: true });
  page = await context.newPage();
  await signInViaUi(page, stack, EMAIL, PASSWORD);
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('at 390 × 844', () => {
  const TABLES = () => [
    { name: 'dashboard-activity', route: '/dashboard', columns: ['Activity', 'Date', 'Status'] },
    { name: 'customers', route: '/customers', columns: ['Name', 'Actions'] },
    { name: 'templates', route: '/template', columns: ['Template Name', 'Status', 'Actions'] },
    { name: 'broadcast-history', route: '/broadcast', columns: ['Name', 'Status', 'Actions'] },
    { name: 'delivery-report', route: reportPath, columns: ['Number', 'Outcome'] },
    {
      name: 'numbers',
      route: '/number',
      columns: ['Display Phone Number', 'Code Verification Status', 'Quality Rating'],
    },
  ];

  it('every table keeps its status and actions inside the viewport', async () => {
    const outside: string[] = [];
    for (const table of TABLES()) {
      await open(table.route);
      for (const cell of await cellExtents(table.columns)) {
        if (!cell.found) outside.push(`${table.name}: no ${cell.column} column`);
        else if (cell.left < 0 || cell.right > WIDTH)
          outside.push(`${table.name}: ${cell.column} spans ${cell.left}–${cell.right} px`);
        for (const control of cell.controls)
          if (control.left < 0 || control.right > WIDTH)
            outside.push(
              `${table.name}: a control in ${cell.column} spans ${control.left}–${control.right} px`,
            );
      }
      expect(await overflow(), `${table.name} scrolls sideways`).toBeLessThanOrEqual(0);
      await shoot(table.name);
    }
    expect(outside).toEqual([]);
    // The history's scheduled row can be cancelled right there.
    await open('/broadcast');
    const cancel = page.getByRole('button', { name: 'Cancel Weekend special' });
    await cancel.waitFor();
    const box = await cancel.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(WIDTH);
  }, 120_000);

  it('the template preview is one tap away and keeps what was typed', async () => {
    await open('/template/create-template');
    const show = page.getByRole('group', { name: 'Show' });
    const name = page.getByLabel('Template Name');
    await name.fill('pocket_news');
    await page.getByLabel('Body Text').fill('Fresh rolls at 7');
    const previewHeading = page.getByRole('heading', { name: 'Preview', exact: true });
    expect(await previewHeading.isVisible()).toBe(false);
    await show.getByRole('button', { name: 'Preview' }).click();
    expect(await show.getByRole('button', { name: 'Preview' }).getAttribute('aria-pressed')).toBe('true');
    expect(await previewHeading.isVisible()).toBe(true);
    expect(await name.isVisible()).toBe(false);
    const bubble = page.locator('aside').getByText('Fresh rolls at 7').first();
    const box = await bubble.boundingBox();
    // The preview is on the first screenful, not 3,000 px down.
    expect(box && box.y + box.height).toBeLessThanOrEqual(HEIGHT);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shoot('template-preview');
    await show.getByRole('button', { name: 'Form' }).click();
    expect(await name.inputValue()).toBe('pocket_news');
    expect(await previewHeading.isVisible()).toBe(false);
  }, 60_000);

  it('the broadcast preview is one tap away', async () => {
    await open('/broadcast/new');
    await page
      .getByRole('combobox', { name: 'Message Template' })
      .selectOption({ label: 'pocket_welcome (en_US)' });
    const show = page.getByRole('group', { name: 'Show' });
    await show.getByRole('button', { name: 'Preview' }).click();
    const bubble = page
      .locator('aside')
      .getByText(/your bread is ready/)
      .first();
    await bubble.waitFor();
    const box = await bubble.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(HEIGHT);
    expect(await page.getByRole('textbox', { name: 'Broadcast Name' }).isVisible()).toBe(false);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shoot('broadcast-preview');
    await show.getByRole('button', { name: 'Form' }).click();
    expect(await page.getByRole('textbox', { name: 'Broadcast Name' }).isVisible()).toBe(true);
  }, 60_000);

  it("the account selector shows the business's whole name", async () => {
    await open('/dashboard');
    const select = page.getByLabel('Business account');
    expect(await select.inputValue()).not.toBe('');
    // The name's width in the select's own font, against the room its padding leaves for text.
    const { text, room } = await select.evaluate((element) => {
      const style = getComputedStyle(element);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const selected = (element as HTMLSelectElement).selectedOptions[0]?.textContent ?? '';
      return {
        text: context.measureText(selected).width,
        room: element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      };
    });
    expect(text).toBeGreaterThan(0);
    expect(text).toBeLessThanOrEqual(room);
    expect(await overflow()).toBeLessThanOrEqual(0);
  }, 60_000);

  it('the settings tab strip shows that it scrolls', async () => {
    await open('/settings');
    const strip = page.getByRole('tablist', { name: 'Settings' });
    expect(await strip.getAttribute('data-scrolls')).toBe('true');
    expect(await page.getByTestId('tabs-shade-end').isVisible()).toBe(true);
    expect(await page.getByTestId('tabs-shade-start').count()).toBe(0);
    await shoot('settings-tabs');
    // The last tab, reached by the arrow keys, scrolls into view; the shades follow.
    await page.getByRole('tab', { name: 'Message Settings' }).focus();
    await page.keyboard.press('ArrowLeft');
    const last = page.getByRole('tab', { name: 'Other Settings' });
    expect(await last.getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.getByTestId('tabs-shade-end').count()).toBe(0);
    expect(await page.getByTestId('tabs-shade-start').isVisible()).toBe(true);
    const box = await last.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(WIDTH);
    expect(await overflow()).toBeLessThanOrEqual(0);
  }, 60_000);

  it('dialogs fit the screen', async () => {
    await open('/customers');
    for (const opener of ['Add New Contact', 'Import Contacts']) {
      await page.getByRole('button', { name: opener, exact: true }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      const box = await dialog.boundingBox();
      expect(box && box.x).toBeGreaterThanOrEqual(0);
      expect(box && box.x + box.width).toBeLessThanOrEqual(WIDTH);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await shoot(`dialog-${opener.toLowerCase().replace(/ /g, '-')}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
  }, 60_000);

  it('no screen scrolls sideways', async () => {
    const routes = [
      '/dashboard',
      '/customers',
      '/template',
      '/template/create-template',
      '/broadcast',
      '/broadcast/new',
      reportPath,
      '/number',
      '/settings',
    ];
    const wider: string[] = [];
    for (const route of routes) {
      await open(route);
      const by = await overflow();
      if (by > 0) wider.push(`${route}: ${by} px`);
    }
    const signedOut = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT } });
    const outPage = await signedOut.newPage();
    for (const route of ['/', '/signup', '/forgot-password', '/terms', '/privacy', '/pin']) {
      await outPage.goto(`${stack.url}${route}`);
      await outPage.getByRole('heading', { level: 1 }).first().waitFor();
      const by = await outPage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (by > 0) wider.push(`${route}: ${by} px`);
    }
    await signedOut.close();
    expect(wider).toEqual([]);
  }, 120_000);
});
