import type { WebhookHandler } from '../webhooks/index';

/**
 * `account_update` with `MM_LITE_TERMS_SIGNED`: the portfolio accepted the Marketing Messages API terms, and
 * Meta sends this for each of its WABAs, which may now send through `/marketing_messages`. The WABA is the one
 * `waba_info` names (Meta's entry id may be the partner's business), else the entry's.
 */
export const applyMmApiTermsSigned: WebhookHandler = async (client, change) => {
  const value = change.value as { event?: unknown; waba_info?: { waba_id?: unknown } } | undefined;
  if (value?.event !== 'MM_LITE_TERMS_SIGNED') return;
  const named = value.waba_info?.waba_id;
  const wabaId = typeof named === 'string' && named !== '' ? named : change.wabaId;
  await client.query(
    `update waba_accounts set mm_api_status = 'ONBOARDED', mm_api_status_since = now()
      where waba_id = $1 and mm_api_status is distinct from 'ONBOARDED'`,
    [wabaId],
  );
};
