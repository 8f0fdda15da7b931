import { mmApiState, type MmApiStatusResponse } from '@herald/contracts';
import type { Pool } from '../../db/pool';
import { GraphApiError, type GraphClient } from '../../graph/graph-client';
import { HttpError } from '../../http-error';
import type { OwnedWaba } from '../../owned-waba';
import type { SecretBox } from '../../security/secret-box';
import { markRequested, readMmApi, saveMetaStatus, type StoredMmApi } from './mm-api-repo';

/** Meta's answer when the portfolio was already invited (by Herald or another partner): nothing more to do. */
const ALREADY_REQUESTED = 1752041;

/**
 * An account's Marketing Messages API onboarding: read from Meta when asked (what Herald stored otherwise), and
 * started where Meta allows it: Meta emails the portfolio's admins an invitation to accept the terms, and its
 * `MM_LITE_TERMS_SIGNED` webhook marks the account onboarded (mm-api-webhooks.ts).
 */
export class MmApiService {
  constructor(private readonly deps: { pool: Pool; graph: GraphClient; secrets: SecretBox }) {}

  /** The state as Meta says it now; what Herald last stored when Meta cannot be reached. */
  async status(waba: OwnedWaba): Promise<MmApiStatusResponse> {
    await this.refresh(waba).catch((error: unknown) => {
      if (!(error instanceof GraphApiError)) throw error;
    });
    return answer(waba, await readMmApi(this.deps.pool, waba.id));
  }

  async start(waba: OwnedWaba): Promise<MmApiStatusResponse> {
    await this.refresh(waba).catch(() => undefined);
    const stored = await readMmApi(this.deps.pool, waba.id);
    const now = answer(waba, stored);
    // Already onboarded, or already asked (by Herald or Meta's own flow): nothing more to ask, as Meta says.
    if (now.state === 'onboarded' || now.state === 'pending') return now;
    if (!now.can_start) {
      throw HttpError.field(
        409,
        'marketing_messages',
        now.state === 'unknown'
          ? 'Meta has not said whether this account can use the Marketing Messages API yet; try again shortly'
          : `This account cannot start onboarding now: ${now.reason ?? now.state}`,
      );
    }
    if (!stored.businessId)
      throw HttpError.field(
        409,
        'marketing_messages',
        'Meta has not named the business portfolio that owns this account',
      );
    try {
      await this.deps.graph.requestMarketingMessagesOnboarding(this.token(waba), stored.businessId);
    } catch (error) {
      if (!(error instanceof GraphApiError) || error.code !== ALREADY_REQUESTED) {
        if (error instanceof GraphApiError)
          throw new HttpError(502, `WhatsApp Cloud API error: ${error.message}`);
        throw error;
      }
    }
    await markRequested(this.deps.pool, waba.id);
    return answer(waba, await readMmApi(this.deps.pool, waba.id));
  }

  private async refresh(waba: OwnedWaba): Promise<void> {
    const node = await this.deps.graph.getMarketingMessagesStatus(this.token(waba), waba.wabaId);
    await saveMetaStatus(
      this.deps.pool,
      waba.id,
      node.marketing_messages_onboarding_status ?? null,
      node.owner_business_info?.id ?? null,
    );
  }

  private token(waba: OwnedWaba): string {
    return this.deps.secrets.open(waba.businessTokenEncrypted);
  }
}

function answer(waba: OwnedWaba, stored: StoredMmApi): MmApiStatusResponse {
  const { state, reason } = mmApiState(stored.metaStatus, stored.requestedAt !== null);
  return {
    waba_id: waba.wabaId,
    state,
    meta_status: stored.metaStatus,
    reason,
    requested_at: stored.requestedAt?.toISOString() ?? null,
    status_since: stored.statusSince?.toISOString() ?? null,
    can_start: state === 'not_onboarded',
    routes_marketing: state === 'onboarded' && stored.viaMmApi,
  };
}
