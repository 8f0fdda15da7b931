import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { contentSecurityPolicy, contentSecurityPolicyDirectives } from './security-headers';

describe('contentSecurityPolicyDirectives', () => {
  it('allows the sandbox shim as a script and nothing else of the sandbox', () => {
    const csp = contentSecurityPolicyDirectives(
      loadConfig({ SANDBOX_PORT: '9911', SANDBOX_PUBLIC_URL: 'http://localhost:9911' }),
    );
    expect(csp['script-src']).toEqual(["'self'", 'http://localhost:9911']);
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['frame-src']).toEqual(["'none'"]);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:']);
  });

  it("allows exactly what Meta's SDK needs when the Graph API is Meta's", () => {
    const csp = contentSecurityPolicyDirectives(loadConfig({ GRAPH_API_BASE: 'https://graph.facebook.com' }));
    expect(csp['script-src']).toEqual(["'self'", 'https://connect.facebook.net']);
    expect(csp['frame-src']).toEqual(['https://www.facebook.com', 'https://web.facebook.com']);
    expect(csp['connect-src']).toEqual([
      "'self'",
      'https://www.facebook.com',
      'https://web.facebook.com',
      'https://graph.facebook.com',
    ]);
    expect(csp['img-src']).toEqual([
      "'self'",
      'data:',
      'blob:',
      'https://www.facebook.com',
      'https://web.facebook.com',
    ]);
  });

  it('follows EMBEDDED_SIGNUP_SDK_URL and EMBEDDED_SIGNUP_TRUSTED_ORIGINS, origins only', () => {
    const csp = contentSecurityPolicyDirectives(
      loadConfig({
        GRAPH_API_BASE: 'https://graph.facebook.com',
        EMBEDDED_SIGNUP_SDK_URL: 'https://cdn.example.com/fb/sdk.js?v=2',
        EMBEDDED_SIGNUP_TRUSTED_ORIGINS: 'https://www.facebook.com',
      }),
    );
    expect(csp['script-src']).toEqual(["'self'", 'https://cdn.example.com']);
    expect(csp['frame-src']).toEqual(['https://www.facebook.com']);
  });

  it('keeps the fixed directives and never a wildcard or an unsafe script source', () => {
    for (const env of [{}, { GRAPH_API_BASE: 'https://graph.facebook.com' }]) {
      const header = contentSecurityPolicy(loadConfig(env));
      expect(header).toContain("default-src 'self'");
      expect(header).toContain("object-src 'none'");
      expect(header).toContain("base-uri 'self'");
      expect(header).toContain("frame-ancestors 'none'");
      expect(header).toContain("form-action 'self'");
      expect(header).not.toContain('*');
      expect(header).not.toMatch(/script-src[^;]*'unsafe-/);
      expect(header).not.toContain('https:;');
    }
  });
});
