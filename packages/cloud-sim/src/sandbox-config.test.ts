import { describe, expect, it } from 'vitest';
import type { SandboxConfig } from './context';
import { configView, updateConfig } from './sandbox-config';

const initial = (): SandboxConfig => ({
  reviewDelayMs: 2000,
  webhookUrl: null,
  webhookRetryBaseMs: 500,
  webhookMaxAttempts: 5,
});

describe('updateConfig', () => {
  it('takes snake_case or camelCase names and numeric strings', () => {
    const config = initial();
    updateConfig(config, { review_delay_ms: '10', webhookUrl: 'http://127.0.0.1:3000/webhooks/whatsapp' });
    expect(configView(config)).toEqual({
      review_delay_ms: 10,
      webhook_url: 'http://127.0.0.1:3000/webhooks/whatsapp',
      webhook_retry_base_ms: 500,
      webhook_max_attempts: 5,
    });
    updateConfig(config, { webhook_url: null });
    expect(config.webhookUrl).toBeNull();
  });

  it('changes nothing when any value is bad', () => {
    const config = initial();
    expect(() => updateConfig(config, { review_delay_ms: 5, webhook_max_attempts: 0 })).toThrow(
      /webhook_max_attempts/,
    );
    expect(() => updateConfig(config, { webhook_url: 'not a url' })).toThrow(/webhook_url/);
    expect(() => updateConfig(config, { review_delay_ms: -1 })).toThrow(/review_delay_ms/);
    expect(config).toEqual(initial());
  });
});
