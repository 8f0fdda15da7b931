import { useCallback } from 'react';
import { EmbeddedSignupError, runEmbeddedSignup } from './embedded-signup';
import type { EmbeddedSignupResult } from './embedded-signup';
import { loadFacebookSdk } from './facebook-sdk';
import { signupConfigApi } from './signup-config-api';

/**
 * Returns `start()`, which fetches the sign-up config, loads the SDK and runs one Embedded Signup.
 * Rejects with EmbeddedSignupError; a config or SDK that cannot be loaded counts as 'sdk-missing'.
 */
export function useEmbeddedSignup(): () => Promise<EmbeddedSignupResult> {
  const [fetchConfig] = signupConfigApi.useLazyGetSignupConfigQuery();
  return useCallback(async () => {
    let config;
    let sdk;
    try {
      config = await fetchConfig(undefined, true).unwrap();
      sdk = await loadFacebookSdk(config);
    } catch (error) {
      throw new EmbeddedSignupError('sdk-missing', error instanceof Error ? error.message : undefined);
    }
    return runEmbeddedSignup({ sdk, config });
  }, [fetchConfig]);
}
