import { SERVICE_CATEGORY } from '../messages/status-payload';
import type { StatusEvent } from '../messages/status-payload';
import { priceDelivered } from './meta-rates';
import { maxPriceCharge } from '../templates/max-price';

/** One message Meta charged for: a template message the sandbox delivered, priced when it was delivered. */
export interface BilledMessage {
  wabaId: string;
  /** The business number's digits, as `phone_numbers` filters and the PHONE dimension name it. */
  phoneNumber: string;
  country: string;
  /** Meta's upper-case names, as pricing_analytics answers them. */
  pricingCategory: string;
  pricingType: 'REGULAR';
  /** The delivered status's time (Unix s). */
  deliveredAt: number;
  cost: number;
}

/**
 * What Meta bills (per-message pricing: each delivered template message), as the sandbox delivers: filled from
 * the `delivered` statuses it posts, once per message (a duplicated status is not billed twice). Memory only,
 * like the accepted log: a restart or `POST /__sandbox/reset` starts it empty.
 */
export class BillingLedger {
  private readonly billed: BilledMessage[] = [];
  private readonly wamids = new Set<string>();

  /** Called for every status the sandbox posts; only a message's first `delivered` is billed. */
  observe(event: StatusEvent): void {
    if (event.status !== 'delivered' || this.wamids.has(event.message.wamid)) return;
    // A reply inside a customer service window is free: Meta bills templates only.
    if (event.message.category === SERVICE_CATEGORY) return;
    this.wamids.add(event.message.wamid);
    const { message } = event;
    const { country, cost } = priceDelivered(message.recipient, message.category);
    this.billed.push({
      wabaId: message.wabaId,
      phoneNumber: message.displayDigits,
      country,
      pricingCategory: message.category.toUpperCase(),
      pricingType: 'REGULAR',
      deliveredAt: event.timestamp,
      // A max-price message costs what its delivered status said (templates/max-price.ts).
      cost: maxPriceCharge(message) ?? cost,
    });
  }

  /** The WABA's billed messages delivered in [start, end) (Unix s). */
  between(wabaId: string, start: number, end: number): BilledMessage[] {
    return this.billed.filter((b) => b.wabaId === wabaId && b.deliveredAt >= start && b.deliveredAt < end);
  }

  get size(): number {
    return this.billed.length;
  }

  clear(): void {
    this.billed.length = 0;
    this.wamids.clear();
  }
}
