import {
  DEFAULT_CREATE_LANGUAGE,
  DEFAULT_EDIT_LANGUAGE,
  DEFAULT_TEMPLATE_CATEGORY,
  TEMPLATE_CATEGORIES,
  distinctVariables,
  findVariables,
  isDynamicUrl,
  isTemplateLanguage,
  maxPriceDollars,
  readVariableMap,
} from '@herald/contracts';
import type { ButtonType, HeaderType, TemplateDetail } from '@herald/contracts';

/** One body variable row ({{n}} is its index + 1): a typed value, or a customer column when dynamic. */
export type BodyParam = {
  text: string;
  isDynamic: boolean;
  column: string;
  /** A dynamic variable's example is the column's sample ('Default') or typed ('Custom'). */
  exampleMode: 'default' | 'custom';
  example: string;
};

/** A button as the form holds it (the payload's `type` is kept as `sub_type`). */
export type FormButton = {
  /** Keys the row while buttons are added and removed. */
  key: number;
  sub_type: ButtonType;
  text: string;
  url: string;
  phone_number: string;
  /** The comma-separated examples of a dynamic URL, as typed. */
  example: string;
  isDynamicUrl: boolean;
};

/** Template form state. */
export type TemplateFormState = {
  templateName: string;
  selectedLanguage: string;
  selectedCategory: string;
  headerType: HeaderType;
  headerText: string;
  /** The static value of the header's {{1}}. */
  headerValue: string;
  isDynamicHeader: boolean;
  /** The customer column of a dynamic header variable. */
  headerColumn: string;
  headerContent: {
    file: File | null;
    /** The document name (required for a document header). */
    filename: string;
    locationName: string;
    address: string;
  };
  bodyText: string;
  /** Indexed by variable number - 1. */
  bodyParams: BodyParam[];
  footerText: string;
  buttons: FormButton[];
  /** The stored media of an edited template (a same-origin path), or null. */
  mediaUrl: string | null;
  /** A marketing template's own time-to-live in seconds; null keeps Meta's default (30 days). */
  timeToLiveSeconds: number | null;
  /** A marketing template's maximum price as typed, US dollars per delivered message; '' keeps the rate card. */
  maxPriceText: string;
};

export const emptyBodyParam = (): BodyParam => ({
  text: '',
  isDynamic: false,
  column: '',
  exampleMode: 'default',
  example: '',
});

export function initialFormState(): TemplateFormState {
  return {
    templateName: '',
    selectedLanguage: DEFAULT_CREATE_LANGUAGE,
    selectedCategory: DEFAULT_TEMPLATE_CATEGORY,
    headerType: 'none',
    headerText: '',
    headerValue: '',
    isDynamicHeader: false,
    headerColumn: '',
    headerContent: { file: null, filename: '', locationName: '', address: '' },
    bodyText: '',
    bodyParams: [],
    footerText: '',
    buttons: [],
    mediaUrl: null,
    timeToLiveSeconds: null,
    maxPriceText: '',
  };
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function example(component: Json | undefined): Json {
  return component && isRecord(component.example) ? component.example : {};
}

const HEADER_TYPE_OF_FORMAT: Record<string, HeaderType> = {
  text: 'text',
  image: 'image',
  video: 'video',
  document: 'document',
  location: 'location',
};

/** Edit page: the stored template as form state (the header format is lower-cased on read). */
export function formStateFromDetail(detail: TemplateDetail): TemplateFormState {
  const state = initialFormState();
  const components = detail.components as Json[];
  const byType = (type: string) => components.find((c) => c.type === type);
  const header = byType('HEADER');
  const body = byType('BODY');
  const footer = byType('FOOTER');
  const buttons = byType('BUTTONS');

  state.templateName = detail.name;
  state.selectedLanguage = isTemplateLanguage(detail.language) ? detail.language : DEFAULT_EDIT_LANGUAGE;
  state.selectedCategory = (TEMPLATE_CATEGORIES as readonly string[]).includes(detail.category)
    ? detail.category
    : DEFAULT_TEMPLATE_CATEGORY;
  state.mediaUrl = detail.media_url;
  state.timeToLiveSeconds = detail.message_send_ttl_seconds ?? null;
  state.maxPriceText = detail.max_price_bid_amount
    ? String(maxPriceDollars(detail.max_price_bid_amount))
    : '';

  const staticHeader = readVariableMap(detail.static_variables?.header_variable);
  const dynamicHeader = readVariableMap(detail.dynamic_variables.header_variables);
  const staticBody = readVariableMap(detail.static_variables?.body_variable);
  const dynamicBody = readVariableMap(detail.dynamic_variables.body_variable);

  if (header) {
    const headerExample = example(header);
    state.headerType = HEADER_TYPE_OF_FORMAT[str(header.format).toLowerCase()] ?? 'none';
    state.headerText = str(header.text);
    const column = dynamicHeader.get('1');
    if (column !== undefined) {
      state.isDynamicHeader = true;
      state.headerColumn = column;
    } else {
      const texts = headerExample.header_text;
      state.headerValue = staticHeader.get('1') ?? (Array.isArray(texts) ? str(texts[0]) : '');
    }
    state.headerContent.filename = str(headerExample.filename);
    const location = isRecord(headerExample.location) ? headerExample.location : {};
    state.headerContent.locationName = str(location.name);
    state.headerContent.address = str(location.address);
  }

  if (body) {
    state.bodyText = str(body.text);
    const rows = example(body).body_text;
    const examples: unknown[] = Array.isArray(rows) && Array.isArray(rows[0]) ? (rows[0] as unknown[]) : [];
    const count = Math.max(0, ...distinctVariables(state.bodyText));
    state.bodyParams = Array.from({ length: count }, (_, i) => {
      const key = String(i + 1);
      const given = str(examples[i]);
      const column = dynamicBody.get(key);
      if (column !== undefined) {
        return {
          ...emptyBodyParam(),
          isDynamic: true,
          column,
          exampleMode: given ? 'custom' : 'default',
          example: given,
        };
      }
      return { ...emptyBodyParam(), text: staticBody.get(key) ?? given };
    });
  }

  state.footerText = footer ? str(footer.text) : '';

  if (buttons && Array.isArray(buttons.buttons)) {
    state.buttons = (buttons.buttons as unknown[]).filter(isRecord).map((b, key) => {
      const url = str(b.url);
      return {
        key,
        sub_type: (str(b.type) || 'QUICK_REPLY') as ButtonType,
        text: str(b.text),
        url,
        phone_number: str(b.phone_number),
        example: Array.isArray(b.example) ? b.example.map(str).join(', ') : '',
        isDynamicUrl: isDynamicUrl(url),
      };
    });
  }
  return state;
}

/** True when the header text holds its {{1}}. */
export function headerHasVariable(state: TemplateFormState): boolean {
  return state.headerType === 'text' && findVariables(state.headerText).length > 0;
}
