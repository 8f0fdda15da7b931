import { MAX_PRICE, resolveVariableExamples, type TemplatePayload } from '@herald/contracts';

type Component = Record<string, unknown> & { type: string };

/**
 * The body Meta's `POST /{waba-id}/message_templates` takes, from Herald's payload: examples filled from the
 * static values or the dynamic columns' samples (Meta reviews with them), the media handle set, and
 * Herald's own location fields left out (Meta's LOCATION header has none).
 */
export function toMetaTemplate(payload: TemplatePayload, headerHandle: string | null) {
  const examples = resolveVariableExamples(payload);
  const components = (payload.components as Component[]).map((component): Component => {
    switch (component.type) {
      case 'HEADER': {
        const format = String(component.format ?? '').toUpperCase();
        if (format === 'TEXT') {
          const { example: _example, ...rest } = component;
          return examples.header === null ? rest : { ...rest, example: { header_text: [examples.header] } };
        }
        if (format === 'LOCATION') return { type: 'HEADER', format: 'LOCATION' };
        return { type: 'HEADER', format, example: { header_handle: headerHandle ? [headerHandle] : [] } };
      }
      case 'BODY': {
        const { example: _example, ...rest } = component;
        return examples.body.length === 0 ? rest : { ...rest, example: { body_text: [examples.body] } };
      }
      default:
        return component;
    }
  });
  return {
    name: payload.name,
    language: payload.language,
    category: payload.category,
    components,
    ...(payload.message_send_ttl_seconds
      ? { message_send_ttl_seconds: payload.message_send_ttl_seconds }
      : {}),
    ...(payload.max_price_bid_amount
      ? { optimization_spec: optimizationSpec(payload.max_price_bid_amount) }
      : {}),
  };
}

/** Meta's max price on a template: the bid per 1,000 deliveries and the one strategy Meta documents. */
export function optimizationSpec(bidAmount: number) {
  return { bid_amount: bidAmount, bid_strategy: MAX_PRICE.bidStrategy };
}

/** The media header's format of a payload, when it has one. */
export function mediaHeaderFormat(payload: TemplatePayload): 'IMAGE' | 'VIDEO' | 'DOCUMENT' | null {
  const header = (payload.components as Component[]).find((component) => component.type === 'HEADER');
  const format = String(header?.format ?? '').toUpperCase();
  return format === 'IMAGE' || format === 'VIDEO' || format === 'DOCUMENT' ? format : null;
}
