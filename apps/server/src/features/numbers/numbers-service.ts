import type { PhoneNumber } from '@herald/contracts';
import type { Pool } from '../../db/pool';
import type { GraphClient, GraphPhoneNumber } from '../../graph/graph-client';
import type { SecretBox } from '../../security/secret-box';
import type { OwnedWaba } from '../../owned-waba';
import { upsertPhoneNumbers, cloudApiFailure } from '../accounts/index';

const CACHE_MS = 30_000;

function toPhoneNumber(number: GraphPhoneNumber): PhoneNumber {
  return {
    id: number.id,
    verified_name: number.verified_name,
    display_phone_number: number.display_phone_number,
    code_verification_status: number.code_verification_status ?? null,
    quality_rating: number.quality_rating ?? null,
    platform_type: number.platform_type ?? null,
    throughput: number.throughput ?? null,
    last_onboarded_time: number.last_onboarded_time ?? null,
    // Meta deprecated messaging_limit_tier; read the current field first (Meta's Cloud API documentation).
    messaging_limit_tier:
      number.whatsapp_business_manager_messaging_limit ?? number.messaging_limit_tier ?? null,
    status: number.status ?? null,
  };
}

/**
 * The account's numbers, read live from the Cloud API (quality and limits change there), cached for 30 s per
 * account so page loads do not hammer Meta; each read also refreshes the stored copy the sender uses.
 */
export class NumbersService {
  private readonly cache = new Map<number, { at: number; numbers: PhoneNumber[] }>();

  constructor(private readonly deps: { pool: Pool; graph: GraphClient; secrets: SecretBox }) {}

  async list(waba: OwnedWaba): Promise<PhoneNumber[]> {
    const cached = this.cache.get(waba.id);
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.numbers;
    const token = this.deps.secrets.open(waba.businessTokenEncrypted);
    const fresh = await this.deps.graph.listPhoneNumbers(token, waba.wabaId).catch(cloudApiFailure);
    await upsertPhoneNumbers(this.deps.pool, waba.id, fresh);
    const numbers = fresh.map(toPhoneNumber);
    this.cache.set(waba.id, { at: Date.now(), numbers });
    return numbers;
  }
}
