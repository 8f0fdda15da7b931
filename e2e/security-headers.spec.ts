import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { sharedStack } from './support/shared-stack';
import type { StackView } from './support/stack';

// The Content-Security-Policy and its companions in real Chromium against `npm start`: the SPA (with the
// sandbox's Embedded Signup SDK and popup), its pages and Swagger UI work with no violation reported, and
// another origin cannot frame Herald.

interface Violation {
  page: string;
  directive: string;
  blocked: string;
  sample: string;
}

let stack: StackView;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let framer: Server;
let framerUrl: string;

// A 1×1 PNG, a real image for the header preview.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PNG_FILE = path.join(os.tmpdir(), `herald-e2e-${process.pid}-csp.png`);

const EMAIL = 'csp@bakery.test';
const PASSWORD = 'correct horse battery';
const PIN = '246813';

// Every violation, from both of Chromium's channels: the DOM event (recorded by an init script in every
// page and popup, reported through a binding that survives navigations) and the console's report.
const violations: Violation[] = [];
const cspConsole: string[] = [];
const browserLog: string[] = [];

function watch(target: Page): void {
  target.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|Content-Security-Policy/i.test(text))
      cspConsole.push(`${target.url()}: ${text}`);
    if (message.type() === 'error') browserLog.push(`console: ${text}`);
  });
  target.on('response', (response) => {
    if (response.status() >= 400)
      browserLog.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
}

function framingPage(heraldUrl: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Another site</title></head><body>
<iframe id="herald" src="${heraldUrl}/" width="800" height="600"></iframe>
<iframe id="control" src="/inner" width="200" height="100"></iframe>
</body></html>`;
}

beforeAll(async () => {
  stack = await sharedStack();
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.exposeBinding(
    'reportCspViolation',
    ({ page: source }, violation: Omit<Violation, 'page'>) => {
      violations.push({ page: source.url(), ...violation });
    },
  );
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation?: (v: object) => void }).reportCspViolation;
      report?.({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        sample: event.sample,
      });
    });
  });
  context.on('page', watch);
  page = await context.newPage();
  page.setDefaultTimeout(20_000);

  // "localhost" is another origin than Herald's 127.0.0.1.
  framer = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(request.url === '/inner' ? '<p id="inner">framed fine</p>' : framingPage(stack.url));
  });
  await new Promise<void>((done) => framer.listen(0, '127.0.0.1', done));
  framerUrl = `http://localhost:${(framer.address() as AddressInfo).port}/`;
});

afterEach((task) => {
  if (task.task.result?.state === 'fail') {
    console.log(`CSP violations:\n${JSON.stringify(violations, null, 2)}\n${cspConsole.join('\n')}`);
    console.log(`browser log:\n${browserLog.join('\n')}`);
  }
});

afterAll(async () => {
  await browser?.close();
  await new Promise((done) => framer?.close(done));
  rmSync(PNG_FILE, { force: true });
});

function expectNoViolation(): void {
  expect(violations).toEqual([]);
  expect(cspConsole).toEqual([]);
}

describe('security headers in Chromium', () => {
  it('sends the headers on the SPA', async () => {
    const response = await page.goto(`${stack.url}/`);
    const headers = response?.headers() ?? {};
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain(`script-src 'self' ${stack.sandboxUrl}`);
    expect(headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it('signs up through the sandbox popup and signs in, with no CSP violation', async () => {
    await page.goto(`${stack.url}/signup`);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('switch').check();
    await page.getByLabel('PIN').fill(PIN);
    await page.locator('input[name="terms"]').check();
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Sign up with Facebook' }).click(),
    ]);
    // The popup kept its opener (COOP same-origin-allow-popups): the SDK shim got its answer through it.
    expect(await popup.evaluate(() => window.opener !== null)).toBe(true);
    await popup.getByLabel('Business name').fill('CSP Bakery');
    await popup.getByLabel('Phone number').fill('+1 415 555 0177');
    await popup.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${stack.url}/pin`);
    await page.getByRole('heading', { name: 'PIN Created Successfully' }).waitFor();
    // The 'Signup successful' toast is styled by react-hot-toast, which writes one <style> element (the CSP
    // must allow it: no violation below).
    await expect.poll(() => page.locator('style#_goober').count()).toBe(1);

    await page.goto(`${stack.url}/`);
    await page.getByLabel('Username').fill(EMAIL);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${stack.url}/dashboard`);
    expectNoViolation();
  });

  it('shows the app’s pages with no CSP violation', async () => {
    const pages: [string, () => Locator][] = [
      ['/dashboard', () => page.getByText('Dashboard')],
      ['/customers', () => page.getByText('Customers')],
      ['/template', () => page.getByText('Your Templates')],
      ['/template/create-template', () => page.getByLabel('Template Name')],
      ['/broadcast', () => page.getByText('Broadcast History')],
      ['/broadcast/new', () => page.getByText('New Broadcast')],
      ['/number', () => page.getByRole('cell', { name: 'CSP Bakery' })],
      ['/settings', () => page.getByText('Settings')],
    ];
    for (const [path, shown] of pages) {
      await page.goto(`${stack.url}${path}`);
      await page.waitForURL(`${stack.url}${path}`);
      await shown().first().waitFor();
    }
    await page.getByRole('tab', { name: 'WhatsApp Accounts' }).click();
    await page.getByText('WhatsApp Business Accounts').first().waitFor();

    // A header image previewed from its object URL (blob:), as the template form does.
    await page.goto(`${stack.url}/template/create-template`);
    await page
      .getByRole('region', { name: 'Header Configuration' })
      .getByText('Image', { exact: true })
      .click();
    writeFileSync(PNG_FILE, PNG);
    await page.getByLabel('Click to upload or drag and drop').setInputFiles(PNG_FILE);
    const preview = page.getByRole('img', { name: 'Header image preview' });
    await preview.waitFor();
    expect(await preview.getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);
    expectNoViolation();
  });

  it('renders Swagger UI at /docs with its operations, with no CSP violation', async () => {
    const response = await page.goto(`${stack.url}/docs`);
    expect(response?.headers()['content-security-policy']).toContain("object-src 'none'");
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(10);
    await page.getByText('/api/auth/login/').first().waitFor();
    // Expanding an operation renders its schemas (more of Swagger UI's code and styles).
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock-body').first().waitFor();
    expectNoViolation();
  });

  it('cannot be framed by another origin', async () => {
    const framing = await context.newPage();
    const refusals: string[] = [];
    framing.on('console', (message) => {
      if (message.text().includes('frame-ancestors')) refusals.push(message.text());
    });
    await framing.goto(framerUrl);
    // The control frame, same page with no such header, shows its content: the check below can see a frame.
    const control = framing.frameLocator('#control');
    await control.locator('#inner').waitFor();

    await expect.poll(() => refusals.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(refusals[0]).toContain("frame-ancestors 'none'");
    const frames = framing.frames().filter((frame) => frame !== framing.mainFrame());
    expect(frames).toHaveLength(2);
    // Chromium replaces a refused frame by an empty error document: nothing of Herald's page is there.
    const framedHerald = frames.find((frame) => !frame.url().endsWith('/inner'));
    expect(framedHerald).toBeDefined();
    expect(await framedHerald?.locator('#root').count()).toBe(0);
    expect(await framedHerald?.getByLabel('Username').count()).toBe(0);
    await framing.close();
  });
});
