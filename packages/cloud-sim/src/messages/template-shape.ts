import type { TemplateComponent } from '../templates/validate-template';
import { variableMarkers } from '../templates/template-variables';

/** What a send must supply for one template: computed once per components array, then reused. */
export interface TemplateShape {
  /** Header parameters: 'text' for a TEXT header with {{1}}, the media type for a media header, else none. */
  header: { kind: 'text' | 'image' | 'video' | 'document' | 'location'; count: number } | null;
  bodyCount: number;
  /** Buttons by 0-based index: their sub_type and how many parameters they take. */
  buttons: { subType: string; count: number }[];
}

const MEDIA_FORMATS = new Set(['IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION']);

function distinctVariables(text: unknown): number {
  if (typeof text !== 'string') return 0;
  return new Set(variableMarkers(text).map((m) => m.name)).size;
}

function headerShape(header: TemplateComponent | undefined): TemplateShape['header'] {
  if (!header) return null;
  const format = String(header.format ?? 'TEXT').toUpperCase();
  if (MEDIA_FORMATS.has(format)) {
    return { kind: format.toLowerCase() as 'image' | 'video' | 'document' | 'location', count: 1 };
  }
  const count = distinctVariables(header.text);
  return count === 0 ? null : { kind: 'text', count };
}

function buttonShape(button: Record<string, unknown>): { subType: string; count: number } {
  const type = String(button.type ?? '').toUpperCase();
  if (type === 'URL') return { subType: 'url', count: distinctVariables(button.url) };
  if (type === 'COPY_CODE') return { subType: 'copy_code', count: 1 };
  if (type === 'QUICK_REPLY') return { subType: 'quick_reply', count: 0 };
  return { subType: type.toLowerCase(), count: 0 };
}

export function computeTemplateShape(components: TemplateComponent[]): TemplateShape {
  const byType = (type: string) => components.find((c) => String(c.type).toUpperCase() === type);
  const buttons = byType('BUTTONS')?.buttons;
  return {
    header: headerShape(byType('HEADER')),
    bodyCount: distinctVariables(byType('BODY')?.text),
    buttons: Array.isArray(buttons) ? buttons.map((b) => buttonShape(b as Record<string, unknown>)) : [],
  };
}

// An edit replaces a template's components array, so the array itself is the cache key.
const cache = new WeakMap<TemplateComponent[], TemplateShape>();

export function templateShape(components: TemplateComponent[]): TemplateShape {
  let shape = cache.get(components);
  if (!shape) {
    shape = computeTemplateShape(components);
    cache.set(components, shape);
  }
  return shape;
}
