import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';
import { apiLogin, signUpViaApi } from '../test-support/business';

/**
 * One whole flow with the keyboard alone — sign in, add a contact, create a template, send a
 * broadcast through its confirmation — using only page.keyboard (Tab, Shift+Tab, Enter, Space, arrows, typing).
 * Every control reached shows where focus is, and focus comes back to the opener when a dialog closes. The
 * browser is only pointed at the sign-in page; everything after is keys.
 */
const EMAIL = 'keys@herald.test';
const PASSWORD = 'Keyboard only 1';
const TEMPLATE = 'keyboard_hello';
const BROADCAST = 'Typed by keys';

let stack: StackView;
let browser: Browser;
let context: BrowserContext;
let page: Page;

interface Focused {
  tag: string;
  role: string;
  name: string;
  /** The outline or ring drawn around it (or around the field box that wraps it). */
  visible: boolean;
}

/** What has focus now: its tag, role, accessible-ish name and whether a focus indicator is drawn. */
function focused(): Promise<Focused> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { tag: 'body', role: '', name: '', visible: false };
    const labelled = element.getAttribute('aria-labelledby');
    const name =
      element.getAttribute('aria-label') ??
      (labelled ? document.getElementById(labelled)?.textContent : null) ??
      ((element as HTMLInputElement).labels?.[0]?.textContent || null) ??
      element.textContent ??
      '';
    // A ring is a box-shadow with a spread (Tailwind's ring-*); shadow-xs has none.
    const drawn = (target: Element | null) => {
      if (!target) return false;
      const style = getComputedStyle(target);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      return outline || /\b0px 0px 0px [1-9]/.test(style.boxShadow);
    };
    return {
      tag: element.tagName.toLowerCase(),
      role: element.getAttribute('role') ?? '',
      name: name.replace(/\s+/g, ' ').trim(),
      visible: drawn(element) || drawn(element.parentElement),
    };
  });
}

/**
 * Presses Tab (or Shift+Tab) until the focused control's name matches, as a keyboard user moves through a page;
 * fails after `max` presses. Checks the control shows its focus.
 */
async function tabTo(name: string | RegExp, { back = false, max = 60 } = {}): Promise<Focused> {
  const matches = (text: string) => (typeof name === 'string' ? text === name : name.test(text));
  const seen: string[] = [];
  for (let press = 0; press < max; press += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const now = await focused();
    seen.push(now.name);
    if (matches(now.name)) {
      expect(now.visible, `focus on "${now.name}" is not drawn`).toBe(true);
      return now;
    }
  }
  throw new Error(
    `"${String(name)}" not reached with ${back ? 'Shift+Tab' : 'Tab'}; passed ${seen.join(' | ')}`,
  );
}

async function expectFocusOn(name: string | RegExp) {
  await expect
    .poll(async () => (await focused()).name, { timeout: 5_000 })
    .toMatch(typeof name === 'string' ? new RegExp(`^${name}$`) : name);
}

beforeAll(async () => {
  stack = await sharedStack();
  browser = await launchBrowser();
  await signUpViaApi(stack, EMAIL, PASSWORD, 'Keyboard Cafe');
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  // Where the keys stopped, to look at when the flow fails.
  await page?.screenshot({ path: 'test-results/keyboard-flow-last.png' }).catch(() => undefined);
  await context?.close();
  await browser?.close();
});

describe('keyboard alone', () => {
  it('signs in, adds a contact, creates a template and sends a broadcast', async () => {
    await page.goto(`${stack.url}/`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();

    // Sign in.
    await tabTo('Username');
    await page.keyboard.type(EMAIL);
    await tabTo('Password');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.url}/dashboard`);

    // Add a contact: the dialog opens on its first field and gives focus back to its opener when it closes.
    await tabTo(/^Customers/);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.url}/customers`);
    await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    await tabTo('Add New Contact');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await expectFocusOn('Name');
    await page.keyboard.type('Keya Board');
    await tabTo('WhatsApp Number');
    await page.keyboard.type('+447911123488');
    await tabTo('Add Contact');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Edit Keya Board' }).waitFor();
    await expectFocusOn('Add New Contact');

    // The import dialog: Escape closes it and focus is back on its button.
    await tabTo('Import Contacts', { back: true });
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expectFocusOn('Import Contacts');

    // A confirmation (delete) dialog: Cancel is the first stop; closing returns to the row's Delete button.
    await tabTo('Delete Keya Board');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await expectFocusOn('Cancel');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expectFocusOn('Delete Keya Board');

    // Create a template.
    await tabTo('Template', { back: true });
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.url}/template`);
    await tabTo('New Template Message');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.url}/template/create-template`);
    await tabTo('Template Name');
    await page.keyboard.type(TEMPLATE);
    await tabTo('Category');
    // Utility: reviewed as such, whatever the contact's country.
    await page.keyboard.press('ArrowDown');
    await tabTo(/^Body Text/);
    await page.keyboard.type('Hello from the keyboard. Reply STOP to opt out.');
    await tabTo('Save Template');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.url}/template`);

    // The sandbox reviews a new template in the background; the broadcast needs it approved.
    const token = await apiLogin(stack, EMAIL, PASSWORD);
    await expect
      .poll(
        async () => {
          const list = (await (
            await fetch(`${stack.url}/meta/templates/?search=${TEMPLATE}`, {
              headers: { authorization: `Bearer ${token}` },
            })
          ).json()) as { results?: Array<{ template_name: string; status: string }> };
          return list.results?.find((t) => t.template_name === TEMPLATE)?.status;
        },
        { timeout: 30_000, interval: 300 },
      )
      .toBe('APPROVED');

    // Send a broadcast to all contacts.
    await tabTo('Broad Cast', { back: true });
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.url}/broadcast`);
    await tabTo('New Broadcast');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.url}/broadcast/new`);
    await page.getByRole('option', { name: `${TEMPLATE} (en_US)` }).waitFor({ state: 'attached' });
    await tabTo('Broadcast Name');
    await page.keyboard.type(BROADCAST);
    await tabTo('Message Template');
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Message Template' }).inputValue())
      .not.toBe('');
    await tabTo('Filter by Tags');
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByRole('tab', { name: 'All Contacts' }).getAttribute('aria-selected')).toBe('true');
    await expectFocusOn('All Contacts');
    await tabTo('Percentage of recipients');
    await page.keyboard.press('End');
    await tabTo('Send Broadcast');
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog');
    await confirm.waitFor();
    // Escape backs out and focus is back on the button that asked.
    await expectFocusOn('Cancel');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    await expectFocusOn('Send Broadcast');
    await page.keyboard.press('Enter');
    await confirm.waitFor();
    await tabTo('Send Broadcast');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${stack.url}/broadcast`);
    await page.getByRole('link', { name: BROADCAST }).waitFor();

    const history = (await (
      await fetch(`${stack.url}/broadcast/create/?search=${encodeURIComponent(BROADCAST)}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { results: Array<{ name: string; total_recipients: number }> };
    const sent = history.results.find((row) => row.name === BROADCAST);
    expect(sent).toBeDefined();
    expect(sent?.total_recipients).toBe(1);
  }, 180_000);
});
