import { describe, expect, it, vi } from 'vitest';
import type { SignupConfigResponse } from '@herald/contracts';
import type { FacebookSdk } from './embedded-signup';
import { loadFacebookSdk } from './facebook-sdk';

const config: SignupConfigResponse = {
  sdk_url: 'https://sandbox.example/sdk.js',
  app_id: 'herald-sandbox-app',
  config_id: 'cfg',
  graph_version: 'v21.0',
  trusted_origins: ['https://sandbox.example'],
  sandbox: true,
};

function lastScript(): HTMLScriptElement {
  const scripts = document.querySelectorAll('script');
  const script = scripts[scripts.length - 1];
  if (!script) throw new Error('no script injected');
  return script;
}

// One test: the loader keeps module state for the whole page, as it should in the app.
describe('loadFacebookSdk', () => {
  it('injects the configured script once, retries after a failure, and initialises FB once', async () => {
    const failed = loadFacebookSdk(config);
    expect(document.querySelectorAll('script')).toHaveLength(1);
    lastScript().dispatchEvent(new Event('error'));
    await expect(failed).rejects.toThrow('Could not load https://sandbox.example/sdk.js');

    const empty = loadFacebookSdk(config);
    expect(document.querySelectorAll('script')).toHaveLength(2);
    lastScript().dispatchEvent(new Event('load'));
    expect(await empty).toBeUndefined();

    const sdk: FacebookSdk = { init: vi.fn(), login: vi.fn() };
    const first = loadFacebookSdk(config);
    const second = loadFacebookSdk(config);
    expect(document.querySelectorAll('script')).toHaveLength(3);
    const script = lastScript();
    expect(script.src).toBe('https://sandbox.example/sdk.js');
    expect(script.crossOrigin).toBe('anonymous');
    window.FB = sdk;
    script.dispatchEvent(new Event('load'));
    expect(await first).toBe(sdk);
    expect(await second).toBe(sdk);
    expect(await loadFacebookSdk(config)).toBe(sdk);
    expect(document.querySelectorAll('script')).toHaveLength(3);
    expect(sdk.init).toHaveBeenCalledTimes(1);
    expect(sdk.init).toHaveBeenCalledWith({
      appId: 'herald-sandbox-app',
      autoLogAppEvents: true,
      xfbml: true,
      version: 'v21.0',
    });
    delete window.FB;
  });
});
