import { describe, expect, it } from 'vitest';
import { META_FAILURE_REASONS } from './failure-reasons';
import {
  LIMITED_RETRY_HOURS,
  META_ERROR,
  metaErrorCodes,
  metaRetryDelayMs,
  outcomeOfMetaError,
  PAIR_RATE_RETRY_MS,
} from './meta-outcomes';

describe("Meta's error outcomes", () => {
  it('retries the codes that mean "not now" rather than "never"', () => {
    // Meta's error-code reference: rate limits and passing outages.
    for (const code of [130429, 131056, 131000, 131016, 4, 80007, 2]) {
      expect(outcomeOfMetaError(code), String(code)).toBe('retry');
    }
    expect(metaErrorCodes('retry').sort()).toEqual([2, 4, 80007, 130429, 131000, 131016, 131056].sort());
  });

  it('gives the marketing limit, not on WhatsApp and a paused template outcomes of their own', () => {
    expect(outcomeOfMetaError(131049)).toBe('limited');
    expect(outcomeOfMetaError(131026)).toBe('not_on_whatsapp');
    expect(outcomeOfMetaError(132015)).toBe('template_paused');
    expect(outcomeOfMetaError(132016)).toBe('template_paused');
    expect(metaErrorCodes('limited')).toEqual([META_ERROR.marketingLimit]);
    expect(metaErrorCodes('not_on_whatsapp')).toEqual([META_ERROR.notOnWhatsApp]);
    expect(metaErrorCodes('template_paused').sort()).toEqual([132015, 132016]);
  });

  it('fails for good every other code, an unknown one and none', () => {
    for (const code of [131050, 131047, 131048, 132000, 132001, 132018, 190, 368, 100, 135000, 400, 0]) {
      expect(outcomeOfMetaError(code), String(code)).toBe('failed');
    }
    expect(outcomeOfMetaError(null)).toBe('failed');
  });

  it('waits at least the pair rate before messaging the same person again, and nothing else', () => {
    expect(META_ERROR.pairRate).toBe(131056);
    expect(metaRetryDelayMs(131056)).toBe(PAIR_RATE_RETRY_MS);
    expect(PAIR_RATE_RETRY_MS).toBe(6_000);
    expect(metaRetryDelayMs(130429)).toBeUndefined();
    expect(metaRetryDelayMs(131049)).toBeUndefined();
  });

  it('names each code once, as Meta documents it', () => {
    const codes = Object.values(META_ERROR);
    expect(new Set(codes).size).toBe(codes.length);
    expect(META_ERROR).toMatchObject({
      marketingLimit: 131049,
      notOnWhatsApp: 131026,
      stoppedMarketing: 131050,
      templatePaused: 132015,
      templateDisabled: 132016,
      throughput: 130429,
    });
  });

  it('keys the plain words by the same codes, and the words say what the outcome does', () => {
    const named = new Set<number>(Object.values(META_ERROR));
    for (const code of Object.keys(META_FAILURE_REASONS).map(Number)) {
      expect(named.has(code), String(code)).toBe(true);
    }
    expect(META_FAILURE_REASONS[META_ERROR.marketingLimit]!.action).toContain(`${LIMITED_RETRY_HOURS} hours`);
    expect(META_FAILURE_REASONS[META_ERROR.notOnWhatsApp]!.action).toContain('does not try again');
    for (const code of metaErrorCodes('retry')) {
      const words = META_FAILURE_REASONS[code];
      if (words) expect(`${words.explanation} ${words.action}`, String(code)).toMatch(/retri/);
    }
  });
});
