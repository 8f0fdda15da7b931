import { optimizationSpecNode } from './max-price';
import type { TemplateCategory, TemplateComponent, TemplateDefinition } from './validate-template';

export const TEMPLATE_STATUSES = [
  'APPROVED',
  'PENDING',
  'REJECTED',
  'PAUSED',
  'DISABLED',
  'IN_APPEAL',
  'PENDING_DELETION',
  'DELETED',
  'LIMIT_EXCEEDED',
  'ARCHIVED',
] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const REJECTION_REASONS = [
  'ABUSIVE_CONTENT',
  'INCORRECT_CATEGORY',
  'INVALID_FORMAT',
  'SCAM',
  'TAG_CONTENT_MISMATCH',
  'PROMOTIONAL',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export interface MessageTemplate {
  id: string;
  wabaId: string;
  name: string;
  language: string;
  category: TemplateCategory;
  parameterFormat: 'POSITIONAL';
  components: TemplateComponent[];
  /** Its own time-to-live (time-to-live.ts); absent (also in older state files): the category's default. */
  messageSendTtlSeconds?: number;
  /** Its max price, `optimization_spec.bid_amount` (max-price.ts); absent (also in older state files): none. */
  maxPriceBidAmount?: number;
  /** `cta_url_link_tracking_opted_out`: true, its URL buttons' clicks are not counted (template-link-tracking.ts). */
  ctaUrlLinkTrackingOptedOut?: boolean;
  status: TemplateStatus;
  rejectedReason: RejectionReason | 'NONE';
  /** Set at the first approval; Meta scores a template only once it is in use. */
  qualityScore: { score: 'GREEN' | 'YELLOW' | 'RED' | 'UNKNOWN'; date: number } | null;
  lastUpdatedTime: Date;
  /** Creation order, newest listed first. */
  sequence: number;
}

/** A template as the state file keeps it: its time as ISO text. */
export type StoredTemplate = Omit<MessageTemplate, 'lastUpdatedTime'> & { lastUpdatedTime: string };

const keyOf = (wabaId: string, name: string, language: string) => `${wabaId}\u0000${name}\u0000${language}`;

/** Every template of every WABA, by id. */
export class TemplateStore {
  private readonly templates = new Map<string, MessageTemplate>();
  /** WABA + name + language → id: sends look templates up by these, many times a second. */
  private readonly byKey = new Map<string, string>();
  private sequence = 0;

  clear(): void {
    this.templates.clear();
    this.byKey.clear();
  }

  has(id: string): boolean {
    return this.templates.has(id);
  }

  create(id: string, wabaId: string, definition: TemplateDefinition): MessageTemplate {
    this.sequence += 1;
    const template: MessageTemplate = {
      id,
      wabaId,
      ...definition,
      status: 'PENDING',
      rejectedReason: 'NONE',
      qualityScore: null,
      lastUpdatedTime: new Date(),
      sequence: this.sequence,
    };
    this.templates.set(id, template);
    this.byKey.set(keyOf(wabaId, template.name, template.language), id);
    return template;
  }

  find(id: string): MessageTemplate | undefined {
    return this.templates.get(id);
  }

  ofWaba(wabaId: string): MessageTemplate[] {
    return [...this.templates.values()]
      .filter((t) => t.wabaId === wabaId)
      .sort((a, b) => b.sequence - a.sequence);
  }

  findByNameAndLanguage(wabaId: string, name: string, language: string): MessageTemplate | undefined {
    const id = this.byKey.get(keyOf(wabaId, name, language));
    return id === undefined ? undefined : this.templates.get(id);
  }

  /** Meta counts a name once across its languages against the per-WABA limit. */
  namesOf(wabaId: string): Set<string> {
    return new Set(this.ofWaba(wabaId).map((t) => t.name));
  }

  remove(ids: string[]): void {
    for (const id of ids) {
      const template = this.templates.get(id);
      if (template) this.byKey.delete(keyOf(template.wabaId, template.name, template.language));
      this.templates.delete(id);
    }
  }

  /** Everything, for the state file (see persistence/). */
  records(): { sequence: number; templates: StoredTemplate[] } {
    return {
      sequence: this.sequence,
      templates: [...this.templates.values()].map((t) => ({
        ...t,
        lastUpdatedTime: t.lastUpdatedTime.toISOString(),
      })),
    };
  }

  /** Replaces everything with what a state file kept. */
  restore(records: { sequence: number; templates: StoredTemplate[] }): void {
    this.clear();
    for (const stored of records.templates) {
      const template: MessageTemplate = { ...stored, lastUpdatedTime: new Date(stored.lastUpdatedTime) };
      this.templates.set(template.id, template);
      this.byKey.set(keyOf(template.wabaId, template.name, template.language), template.id);
    }
    this.sequence = records.sequence;
  }

  setStatus(template: MessageTemplate, status: TemplateStatus, reason: RejectionReason | null): void {
    template.status = status;
    template.rejectedReason = status === 'REJECTED' ? (reason ?? 'INVALID_FORMAT') : 'NONE';
    if (status === 'APPROVED' && template.qualityScore === null) {
      template.qualityScore = { score: 'UNKNOWN', date: Math.floor(Date.now() / 1000) };
    }
    template.lastUpdatedTime = new Date();
  }

  snapshot() {
    return [...this.templates.values()]
      .sort((a, b) => a.sequence - b.sequence)
      .map((t) => ({
        id: t.id,
        waba_id: t.wabaId,
        name: t.name,
        language: t.language,
        category: t.category,
        status: t.status,
        rejected_reason: t.rejectedReason,
        quality_score: t.qualityScore,
        ...(t.messageSendTtlSeconds === undefined
          ? {}
          : { message_send_ttl_seconds: t.messageSendTtlSeconds }),
        ...(t.maxPriceBidAmount === undefined
          ? {}
          : { optimization_spec: optimizationSpecNode(t.maxPriceBidAmount) }),
        components: t.components,
      }));
  }
}
