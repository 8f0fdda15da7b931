import {
  countVariables,
  isDynamicUrl,
  parseMaxPrice,
  parseUrlExamples,
  previewSampleValue,
} from '@herald/contracts';
import type { TemplateButton, TemplateComponent, TemplatePayload } from '@herald/contracts';
import { emptyBodyParam, headerHasVariable } from './template-form-state';
import type { BodyParam, FormButton, TemplateFormState } from './template-form-state';

type VariableMap = Record<string, string>;

/** The example Meta reviews a dynamic body variable with: the typed one ('Custom') or the column's sample. */
export function dynamicExample(param: BodyParam): string {
  if (param.exampleMode === 'custom' && param.example.trim().length > 0) return param.example;
  return param.column ? previewSampleValue(param.column) : '';
}

function headerComponent(state: TemplateFormState): TemplateComponent | null {
  switch (state.headerType) {
    case 'none':
      return null;
    case 'text': {
      if (!headerHasVariable(state)) return { type: 'HEADER', format: 'TEXT', text: state.headerText };
      const value = state.isDynamicHeader
        ? state.headerColumn
          ? previewSampleValue(state.headerColumn)
          : ''
        : state.headerValue;
      return { type: 'HEADER', format: 'TEXT', text: state.headerText, example: { header_text: [value] } };
    }
    case 'location':
      return {
        type: 'HEADER',
        format: 'LOCATION',
        example: {
          location: { name: state.headerContent.locationName, address: state.headerContent.address },
        },
      };
    case 'document':
      return { type: 'HEADER', format: 'DOCUMENT', example: { filename: state.headerContent.filename } };
    case 'image':
      return { type: 'HEADER', format: 'IMAGE' };
    case 'video':
      return { type: 'HEADER', format: 'VIDEO' };
  }
}

function button(b: FormButton): TemplateButton {
  switch (b.sub_type) {
    case 'QUICK_REPLY':
      return { type: 'QUICK_REPLY', text: b.text };
    case 'PHONE_NUMBER':
      return { type: 'PHONE_NUMBER', text: b.text, phone_number: b.phone_number };
    case 'URL':
      return isDynamicUrl(b.url)
        ? { type: 'URL', text: b.text, url: b.url, example: parseUrlExamples(b.example) }
        : { type: 'URL', text: b.text, url: b.url };
  }
}

/**
 * Template creation payload from the form: the components (upper-case formats and types), the static
 * values as lists of one-key objects (`[{'1': value}]`), the dynamic columns as one object per part
 * (`{'1': column}`). Only the variables whose markers are in the text are sent.
 */
export function buildTemplatePayload(state: TemplateFormState): TemplatePayload {
  const components: TemplateComponent[] = [];
  const header = headerComponent(state);
  if (header) components.push(header);

  const count = countVariables(state.bodyText);
  const params: BodyParam[] = Array.from(
    { length: count },
    (_, i) => state.bodyParams[i] ?? emptyBodyParam(),
  );
  components.push(
    count > 0
      ? {
          type: 'BODY',
          text: state.bodyText,
          example: { body_text: [params.map((p) => (p.isDynamic ? dynamicExample(p) : p.text))] },
        }
      : { type: 'BODY', text: state.bodyText },
  );
  if (state.footerText.trim().length > 0) components.push({ type: 'FOOTER', text: state.footerText });
  if (state.buttons.length > 0) components.push({ type: 'BUTTONS', buttons: state.buttons.map(button) });

  const staticHeader: VariableMap[] = [];
  const dynamicHeader: VariableMap = {};
  if (headerHasVariable(state)) {
    if (state.isDynamicHeader) dynamicHeader['1'] = state.headerColumn;
    else staticHeader.push({ '1': state.headerValue });
  }
  const staticBody: VariableMap[] = [];
  const dynamicBody: VariableMap = {};
  params.forEach((p, i) => {
    const key = String(i + 1);
    if (p.isDynamic) dynamicBody[key] = p.column;
    else staticBody.push({ [key]: p.text });
  });

  return {
    name: state.templateName,
    language: state.selectedLanguage as TemplatePayload['language'],
    category: state.selectedCategory as TemplatePayload['category'],
    components,
    dynamic_variables: {
      ...(Object.keys(dynamicHeader).length > 0 ? { header_variable: dynamicHeader } : {}),
      ...(Object.keys(dynamicBody).length > 0 ? { body_variable: dynamicBody } : {}),
    },
    static_variables: {
      ...(staticHeader.length > 0 ? { header_variable: staticHeader } : {}),
      ...(staticBody.length > 0 ? { body_variable: staticBody } : {}),
    },
    // Only a marketing template takes one (Meta applies it through the Marketing Messages API).
    ...(state.selectedCategory === 'MARKETING' && state.timeToLiveSeconds !== null
      ? { message_send_ttl_seconds: state.timeToLiveSeconds }
      : {}),
    ...(state.selectedCategory === 'MARKETING' ? maxPricePart(state.maxPriceText) : {}),
  };
}

/**
 * The typed maximum price as Meta's bid_amount; text that is no price goes as NaN, so the payload check refuses
 * it and nothing is sent (the field says why, in dollars).
 */
function maxPricePart(text: string): { max_price_bid_amount?: number } {
  const parsed = parseMaxPrice(text);
  if (!parsed.ok) return { max_price_bid_amount: Number.NaN };
  return parsed.value === null ? {} : { max_price_bid_amount: parsed.value };
}

/** True for the header types whose file goes up as `header_file`. */
export function isMediaHeader(state: TemplateFormState): boolean {
  return state.headerType === 'image' || state.headerType === 'video' || state.headerType === 'document';
}

/** The multipart body of POST/PUT /meta/templates/ (header_file only for a chosen media file). */
export function templateFormData(payload: TemplatePayload, state: TemplateFormState): FormData {
  const body = new FormData();
  body.append('template_data', JSON.stringify(payload));
  if (isMediaHeader(state) && state.headerContent.file) body.append('header_file', state.headerContent.file);
  return body;
}
