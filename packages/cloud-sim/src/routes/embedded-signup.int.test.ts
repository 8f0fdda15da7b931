import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../test/sandbox-client';
import { startSandbox } from '../server';
import type { RunningSandbox } from '../server';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});

afterAll(async () => {
  await sandbox.close();
});

describe('Embedded Signup shim', () => {
  it('serves sdk.js with the base URL from the Host header baked in', async () => {
    const response = await fetch(`${sandbox.url}/sdk.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const script = await response.text();
    expect(script).toContain(`var SANDBOX_URL = "${sandbox.url}"`);
    expect(script).toContain('window.FB = {');
  });

  it('bakes publicUrl in when configured', async () => {
    const other = await startSandbox({ port: 0, publicUrl: 'https://sandbox.example.test/' });
    try {
      const script = await (await fetch(`${other.url}/sdk.js`)).text();
      expect(script).toContain('var SANDBOX_URL = "https://sandbox.example.test"');
    } finally {
      await other.close();
    }
  });

  it('serves the popup with labelled inputs and targets the opener origin', async () => {
    const query = new URLSearchParams({
      app_id: 'herald-sandbox-app',
      origin: 'http://localhost:5173',
      session: 's1',
      es_version: 'v4',
    });
    const response = await fetch(`${sandbox.url}/embedded-signup?${query.toString()}`);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<label for="business-name">Business name</label>');
    expect(html).toContain('<label for="phone-number">Phone number</label>');
    expect(html).toContain('"openerOrigin":"http://localhost:5173"');
    expect(html).toMatch(/>Continue</);
    expect(html).toMatch(/>Cancel</);
  });

  it('shows an error page for another app id, escaping it', async () => {
    const html = await (
      await fetch(`${sandbox.url}/embedded-signup?app_id=${encodeURIComponent('<b>x</b>')}`)
    ).text();
    expect(html).toContain('Invalid App ID: &lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toContain('id="business-name"');
    expect(html).toContain('"openerOrigin":"*"');
  });

  it('ends a launch of a retired Embedded Signup version (none given is v2) in an error, as Meta does', async () => {
    for (const esVersion of ['', 'v2', 'v3']) {
      const query = new URLSearchParams({
        app_id: 'herald-sandbox-app',
        session: 's2',
        es_version: esVersion,
      });
      const html = await (await fetch(`${sandbox.url}/embedded-signup?${query.toString()}`)).text();
      expect(html).toContain(`Embedded Signup ${esVersion || 'v2'} is no longer available`);
      expect(html).not.toContain('id="business-name"');
    }
    const script = await (await fetch(`${sandbox.url}/sdk.js`)).text();
    expect(script).toContain("es_version: extras.version ? String(extras.version) : ''");
  });

  it('completes a sign-up into state and refuses another app id', async () => {
    const res = await call(sandbox.url, '/embedded-signup/complete', {
      method: 'POST',
      json: {
        app_id: 'herald-sandbox-app',
        business_name: 'Northwind Bakery',
        phone_number: '+1 415 555 0132',
      },
    });
    expect(res.status).toBe(200);
    const state = (await call(sandbox.url, '/__sandbox/state')).body;
    expect(state.wabas).toContainEqual(
      expect.objectContaining({ id: res.body.waba_id, name: 'Northwind Bakery' }),
    );
    expect(state.phone_numbers).toContainEqual(
      expect.objectContaining({ id: res.body.phone_number_id, display_phone_number: '+1 415-555-0132' }),
    );
    const wrong = await call(sandbox.url, '/embedded-signup/complete', {
      method: 'POST',
      json: { app_id: 'someone-else', business_name: 'X', phone_number: '+1 415 555 0132' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe(101);
    const missing = await call(sandbox.url, '/embedded-signup/complete', {
      method: 'POST',
      json: { app_id: 'herald-sandbox-app', phone_number: '+1 415 555 0132' },
    });
    expect(missing.body.error.message).toContain('business_name');
  });
});
