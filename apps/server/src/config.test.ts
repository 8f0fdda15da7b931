import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { DEFAULT_OUTCOME_TIMEOUT_SECONDS } from './features/broadcasts/sending/broadcast-completion';

describe('loadConfig', () => {
  it('fills defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.SANDBOX_PORT).toBe(8787);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.graphApiBase).toBe('http://127.0.0.1:8787');
  });

  it("waits Meta's 7-day webhook retry window for a lost send's status by default, and no longer", () => {
    expect(loadConfig({}).MESSAGE_OUTCOME_TIMEOUT_SECONDS).toBe(7 * 86_400);
    expect(DEFAULT_OUTCOME_TIMEOUT_SECONDS).toBe(loadConfig({}).MESSAGE_OUTCOME_TIMEOUT_SECONDS);
    expect(() => loadConfig({ MESSAGE_OUTCOME_TIMEOUT_SECONDS: '604801' })).toThrow(
      /MESSAGE_OUTCOME_TIMEOUT_SECONDS/,
    );
  });

  it('names the bad variable in one line', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'abc' });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('"abc"');
      expect(message).not.toContain('\n');
    }
  });

  it('rejects a port out of range and a non-postgres DATABASE_URL', () => {
    expect(() => loadConfig({ SANDBOX_PORT: '70000' })).toThrow(/SANDBOX_PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });

  it("passes the sandbox's sending rules through, and names a bad one", () => {
    expect(loadConfig({}).SANDBOX_DEFAULT_MESSAGING_LIMIT).toBeUndefined();
    const config = loadConfig({
      SANDBOX_DEFAULT_MESSAGING_LIMIT: 'TIER_250',
      SANDBOX_US_MARKETING_RULE: 'false',
    });
    expect([config.SANDBOX_DEFAULT_MESSAGING_LIMIT, config.SANDBOX_US_MARKETING_RULE]).toEqual([
      'TIER_250',
      'false',
    ]);
    expect(() => loadConfig({ SANDBOX_DEFAULT_MESSAGING_LIMIT: 'TIER_1K' })).toThrow(
      /SANDBOX_DEFAULT_MESSAGING_LIMIT/,
    );
    expect(() => loadConfig({ SANDBOX_US_MARKETING_RULE: 'no' })).toThrow(/SANDBOX_US_MARKETING_RULE/);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '' }).PORT).toBe(3000);
  });

  it('reads CORS_ORIGINS as a list of origins, unset by default', () => {
    expect(loadConfig({}).CORS_ORIGINS).toBeUndefined();
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).CORS_ORIGINS).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
  });

  it('refuses anything but exact origins in CORS_ORIGINS and EMBEDDED_SIGNUP_TRUSTED_ORIGINS, in one line', () => {
    for (const bad of [
      '*',
      'https://a.example/',
      'https://a.example/path',
      'a.example',
      "'unsafe-inline'",
      'ftp://a.example',
      'https://a.example,',
    ]) {
      for (const name of ['CORS_ORIGINS', 'EMBEDDED_SIGNUP_TRUSTED_ORIGINS']) {
        let message = '';
        try {
          loadConfig({ [name]: bad });
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
          message = (error as Error).message;
        }
        expect(message, `${name}=${bad}`).toMatch(
          new RegExp(`^invalid configuration: ${name} must be comma-separated origins`),
        );
        expect(message).not.toContain('\n');
      }
    }
  });

  it('refuses an Embedded Signup SDK URL that is not http(s)', () => {
    expect(() => loadConfig({ EMBEDDED_SIGNUP_SDK_URL: 'javascript:alert(1)' })).toThrow(
      /EMBEDDED_SIGNUP_SDK_URL/,
    );
    expect(
      loadConfig({ EMBEDDED_SIGNUP_SDK_URL: 'https://cdn.example.com/sdk.js' }).embeddedSignup.sdkUrl,
    ).toBe('https://cdn.example.com/sdk.js');
  });

  it('derives the Graph base from the sandbox port unless GRAPH_API_BASE is set', () => {
    expect(loadConfig({ SANDBOX_PORT: '9999' }).graphApiBase).toBe('http://127.0.0.1:9999');
    expect(loadConfig({ GRAPH_API_BASE: 'https://graph.facebook.com' }).graphApiBase).toBe(
      'https://graph.facebook.com',
    );
  });

  it('defaults the Graph API version to v25.0 (served until 2028-07-29), and refuses a malformed one', () => {
    expect(loadConfig({}).GRAPH_API_VERSION).toBe('v25.0');
    expect(loadConfig({ GRAPH_API_VERSION: 'v26.0' }).GRAPH_API_VERSION).toBe('v26.0');
    expect(() => loadConfig({ GRAPH_API_VERSION: '25' })).toThrow(
      'invalid configuration: GRAPH_API_VERSION must look like v25.0 (got "25")',
    );
  });
});
