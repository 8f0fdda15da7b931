import type { SignupConfigResponse } from '@herald/contracts';
import type { FacebookSdk } from './embedded-signup';

declare global {
  interface Window {
    FB?: FacebookSdk;
  }
}

let scriptLoad: Promise<void> | null = null;
let initialised: FacebookSdk | null = null;

function injectScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.defer = true;
    script.crossOrigin = 'anonymous';
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`Could not load ${src}`));
    document.body.appendChild(script);
  });
}

/**
 * Loads the provider's SDK (Meta's, or the sandbox's shim: the server's config says which) once per
 * page and initialises it once. Resolves with `window.FB`, or undefined when the script defined none;
 * a failed load is forgotten so that the next attempt retries.
 */
export async function loadFacebookSdk(config: SignupConfigResponse): Promise<FacebookSdk | undefined> {
  if (!window.FB) {
    scriptLoad ??= injectScript(config.sdk_url);
    try {
      await scriptLoad;
    } finally {
      // A failed load, or a script that defined nothing, is retried on the next attempt.
      if (!window.FB) scriptLoad = null;
    }
  }
  const sdk = window.FB;
  if (sdk && sdk !== initialised) {
    sdk.init({ appId: config.app_id, autoLogAppEvents: true, xfbml: true, version: config.graph_version });
    initialised = sdk;
  }
  return sdk;
}
