import { describe, expect, it } from 'vitest';
import type { MessageTemplate } from '../templates/template-store';
import { businessCapabilityPayload, phoneQualityPayload } from './account-payloads';
import { templateStatusPayload } from './template-status-payload';

const NOW = new Date(1_750_000_000_000);

describe('account webhooks', () => {
  it('business_capability_update names the tier, and the phone-number cap Meta sends with it', () => {
    expect(businessCapabilityPayload('w1', 'TIER_100K', NOW)).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'w1',
          time: 1_750_000_000,
          changes: [
            {
              value: { max_daily_conversations_per_business: 'TIER_100K', max_phone_numbers_per_waba: 25 },
              field: 'business_capability_update',
            },
          ],
        },
      ],
    });
    expect(businessCapabilityPayload('w1', 'TIER_250', NOW).entry[0]?.changes[0]?.value).toEqual({
      max_daily_conversations_per_business: 'TIER_250',
      max_phone_numbers_per_business: 2,
    });
  });

  it('phone_number_quality_update carries the digits, the event and the portfolio limit', () => {
    const payload = phoneQualityPayload(
      { wabaId: 'w1', displayDigits: '15550783881', event: 'FLAGGED', tier: 'TIER_2K' },
      NOW,
    );
    expect(payload.entry[0]?.changes[0]).toEqual({
      value: {
        display_phone_number: '15550783881',
        event: 'FLAGGED',
        max_daily_conversations_per_business: 'TIER_2K',
      },
      field: 'phone_number_quality_update',
    });
  });

  it('a pause says NONE as its reason and carries other_info; a disable carries disable_info', () => {
    const template = { id: '1', wabaId: 'w', name: 'n', language: 'en_US', rejectedReason: 'NONE' };
    const paused = templateStatusPayload({ ...template, status: 'PAUSED' } as MessageTemplate, NOW, {
      otherInfo: { title: 'SECOND_PAUSE', description: 'd' },
    });
    expect(paused.entry[0]?.changes[0]?.value).toMatchObject({
      event: 'PAUSED',
      reason: 'NONE',
      other_info: { title: 'SECOND_PAUSE', description: 'd' },
    });
    const disabled = templateStatusPayload({ ...template, status: 'DISABLED' } as MessageTemplate, NOW);
    expect(disabled.entry[0]?.changes[0]?.value).toMatchObject({
      event: 'DISABLED',
      reason: null,
      disable_info: { disable_date: '1750000000' },
    });
    const reinstated = templateStatusPayload({ ...template, status: 'APPROVED' } as MessageTemplate, NOW, {
      event: 'REINSTATED',
    });
    expect(reinstated.entry[0]?.changes[0]?.value).toMatchObject({ event: 'REINSTATED', reason: null });
    expect(reinstated.entry[0]?.changes[0]?.value).not.toHaveProperty('other_info');
  });
});
