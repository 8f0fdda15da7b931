import { optimizationSpecNode } from './max-price';
import { linkTrackingField } from './template-link-tracking';
import type { MessageTemplate } from './template-store';

/** Graph renders times as "2024-05-01T10:00:00+0000". */
function graphTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+0000');
}

/** The Graph JSON of a message template, with every field the sandbox models. */
export function templateNode(template: MessageTemplate) {
  return {
    id: template.id,
    name: template.name,
    language: template.language,
    status: template.status,
    category: template.category,
    parameter_format: template.parameterFormat,
    components: template.components,
    rejected_reason: template.rejectedReason,
    ...(template.qualityScore === null ? {} : { quality_score: template.qualityScore }),
    // Only when the template has its own, as Meta lists it: absent means the category's default.
    ...(template.messageSendTtlSeconds === undefined
      ? {}
      : { message_send_ttl_seconds: template.messageSendTtlSeconds }),
    // Only on a template with a max price (Meta: `fields=optimization_spec`); absent means the rate card.
    ...(template.maxPriceBidAmount === undefined
      ? {}
      : { optimization_spec: optimizationSpecNode(template.maxPriceBidAmount) }),
    ...linkTrackingField(template),
    last_updated_time: graphTime(template.lastUpdatedTime),
  };
}
