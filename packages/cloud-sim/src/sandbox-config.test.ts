import { describe, expect, it } from 'vitest';
import type { SandboxConfig } from './context';
import { configView, MESSAGING_DEFAULTS, updateConfig } from './sandbox-config';

const initial = (): SandboxConfig => ({
  reviewDelayMs: 2000,
  webhookUrl: null,
  webhookRetryBaseMs: 500,
  webhookRetryMaxWaitMs: 3_600_000,
  webhookRetryMaxAgeMs: 604_800_000,
  webhookMaxAttempts: 5,
  ...MESSAGING_DEFAULTS,
  statusDelaysMs: { ...MESSAGING_DEFAULTS.statusDelaysMs },
});

describe('updateConfig', () => {
  it('takes snake_case or camelCase names and numeric strings', () => {
    const config = initial();
    updateConfig(config, { review_delay_ms: '10', webhookUrl: 'http://127.0.0.1:3000/webhooks/whatsapp' });
    expect(configView(config)).toMatchObject({
      review_delay_ms: 10,
      webhook_url: 'http://127.0.0.1:3000/webhooks/whatsapp',
      webhook_retry_base_ms: 500,
      webhook_max_attempts: 5,
    });
    updateConfig(config, { webhook_url: null });
    expect(config.webhookUrl).toBeNull();
  });

  it('takes the webhook retry policy, null lifting the cap on attempts', () => {
    const config = initial();
    updateConfig(config, {
      webhook_retry_base_ms: '20',
      webhookRetryMaxWaitMs: 80,
      webhook_retry_max_age_ms: 1000,
      webhook_max_attempts: null,
    });
    expect(configView(config)).toMatchObject({
      webhook_retry_base_ms: 20,
      webhook_retry_max_wait_ms: 80,
      webhook_retry_max_age_ms: 1000,
      webhook_max_attempts: null,
    });
    updateConfig(config, { webhook_max_attempts: 3 });
    expect(config.webhookMaxAttempts).toBe(3);
    expect(() => updateConfig(config, { webhook_retry_max_age_ms: -1 })).toThrow(/webhook_retry_max_age_ms/);
    expect(() => updateConfig(config, { webhook_retry_max_wait_ms: 2 ** 31 })).toThrow(
      /webhook_retry_max_wait_ms/,
    );
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

  it('takes the messaging settings: partial status delays, shares, reorder as a flag, batching, pair rate', () => {
    const config = initial();
    updateConfig(config, {
      status_delays_ms: { delivered: 50 },
      read_rate: '0.25',
      duplicate_rate: 0.1,
      reorder: true,
      webhook_batch_size: 10,
      webhook_batch_window_ms: 20,
      pair_rate_burst: 2,
      pair_rate_window_ms: 0,
    });
    expect(configView(config)).toMatchObject({
      status_delays_ms: { sent: 100, delivered: 50, read: 800 },
      delivered_rate: 1,
      read_rate: 0.25,
      duplicate_rate: 0.1,
      reorder: true,
      reorder_rate: 1,
      webhook_batch_size: 10,
      webhook_batch_window_ms: 20,
      pair_rate_burst: 2,
      pair_rate_window_ms: 0,
    });
    updateConfig(config, { reorder: false });
    expect(configView(config).reorder).toBe(false);
  });

  it('refuses bad messaging settings without changing anything', () => {
    const config = initial();
    for (const bad of [
      { read_rate: 1.5 },
      { delivered_rate: -0.1 },
      { status_delays_ms: { sent: -1 } },
      { status_delays_ms: 'soon' },
      { webhook_batch_size: 0 },
      { webhook_batch_window_ms: 0 },
      { pair_rate_burst: 0 },
      { reorder: 'sometimes' },
    ]) {
      expect(() => updateConfig(config, { read_rate: 0.1, ...bad })).toThrow();
    }
    expect(config).toEqual(initial());
  });
});
