import { describe, expect, it } from 'vitest';
import { validateTemplatePayload } from './validate';
import { formatTimeToLive, MARKETING_TTL, MARKETING_TTL_CHOICES, timeToLiveError } from './time-to-live';

const marketing = (ttl: unknown) => ({
  name: 'spring_sale',
  language: 'en_US',
  category: 'MARKETING',
  components: [{ type: 'BODY', text: 'Spring prices are here.' }],
  message_send_ttl_seconds: ttl,
});

describe('a marketing template time-to-live', () => {
  it("takes Meta's bounds, 12 hours to 30 days, in whole seconds", () => {
    expect(timeToLiveError(43_200, 'MARKETING')).toBeNull();
    expect(timeToLiveError(2_592_000, 'MARKETING')).toBeNull();
    expect(timeToLiveError(43_199, 'MARKETING')).toMatch(/from 43200 \(12 hours\) to 2592000 \(30 days\)/);
    expect(timeToLiveError(2_592_001, 'MARKETING')).not.toBeNull();
    expect(timeToLiveError(43_200.5, 'MARKETING')).not.toBeNull();
    expect(timeToLiveError('43200', 'MARKETING')).not.toBeNull();
    expect(timeToLiveError(undefined, 'MARKETING')).toBeNull();
    expect(timeToLiveError(null, 'UTILITY')).toBeNull();
  });

  it('is refused on another category, naming the field', () => {
    expect(timeToLiveError(43_200, 'UTILITY')).toBe('only a marketing template takes a time-to-live here');
    const errors = validateTemplatePayload({ ...marketing(86_400), category: 'UTILITY' });
    expect(errors).toContainEqual({
      field: 'message_send_ttl_seconds',
      message: 'only a marketing template takes a time-to-live here',
    });
    expect(validateTemplatePayload(marketing(86_400))).toEqual([]);
    expect(validateTemplatePayload(marketing(60)).map((e) => e.field)).toEqual(['message_send_ttl_seconds']);
  });

  it('offers choices within the bounds, ending with Meta’s default, and reads them in words', () => {
    for (const choice of MARKETING_TTL_CHOICES) expect(timeToLiveError(choice, 'MARKETING')).toBeNull();
    expect(MARKETING_TTL_CHOICES.at(-1)).toBe(MARKETING_TTL.defaultSeconds);
    expect(MARKETING_TTL_CHOICES.map(formatTimeToLive)).toEqual([
      '12 hours',
      '1 day',
      '2 days',
      '3 days',
      '7 days',
      '14 days',
      '30 days',
    ]);
    expect(formatTimeToLive(90)).toBe('90 seconds');
    expect(formatTimeToLive(600)).toBe('10 minutes');
  });
});
