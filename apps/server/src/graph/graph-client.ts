import { graphErrorOf, graphFetch, parseGraphJson, type GraphBody } from './graph-http';

/** A failed Cloud API call: Meta's code and message when it answered, code 0 when it could not be reached. */
export class GraphApiError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
    readonly code: number,
    readonly subcode?: number,
  ) {
    super(message);
  }
}

export interface GraphPhoneNumber {
  id: string;
  display_phone_number: string;
  verified_name: string;
  code_verification_status?: string;
  quality_rating?: string;
  platform_type?: string;
  throughput?: { level: string };
  last_onboarded_time?: string;
  messaging_limit_tier?: string;
  whatsapp_business_manager_messaging_limit?: string;
  status?: string;
}

export interface GraphWaba {
  id: string;
  name?: string;
  /** Marketing Messages API onboarding (ONBOARDED, ELIGIBLE, INELIGIBLE_…, PENDING_…). */
  marketing_messages_onboarding_status?: string;
  owner_business_info?: { id?: string; name?: string };
}

const PHONE_FIELDS = [
  'id',
  'display_phone_number',
  'verified_name',
  'code_verification_status',
  'quality_rating',
  'platform_type',
  'throughput',
  'last_onboarded_time',
  'messaging_limit_tier',
  'whatsapp_business_manager_messaging_limit',
  'status',
].join(',');

/** A message template as Meta lists it. */
export interface GraphTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components?: unknown[];
  rejected_reason?: string;
  quality_score?: { score?: string; date?: number };
}

/** A template as Meta's list answers it for a sync: its review state only. */
export type GraphTemplateState = Pick<
  GraphTemplate,
  'id' | 'name' | 'language' | 'status' | 'rejected_reason' | 'quality_score'
>;

/** `GET /{waba-id}?fields=currency,pricing_analytics…` as Meta answers it (decision 053). */
export interface GraphPricingAnalytics {
  currency?: string;
  pricing_analytics?: { data?: { data_points?: { volume?: number; cost?: number }[] }[] };
}

/** `GET /{waba-id}/template_analytics` as Meta answers it: daily points per template, `clicked` per button. */
export interface GraphTemplateAnalytics {
  data?: {
    data_points?: {
      template_id?: string;
      clicked?: { type?: string; button_content?: string; count?: number }[];
    }[];
  }[];
}

export interface GraphClientOptions {
  baseUrl: string;
  version: string;
  appId: string;
  appSecret: string;
  timeoutMs?: number;
}

/**
 * The Cloud API over real HTTP: the sandbox by default, graph.facebook.com when GRAPH_API_BASE says so.
 * Node's fetch (undici) keeps connections alive per origin.
 */
export class GraphClient {
  constructor(private readonly options: GraphClientOptions) {}

  /** Exchanges Embedded Signup's one-time code for the customer's business token. */
  async exchangeCode(code: string): Promise<string> {
    const query = new URLSearchParams({
      client_id: this.options.appId,
      client_secret: this.options.appSecret,
      code,
    });
    const body = await this.request<{ access_token: string }>('GET', `/oauth/access_token?${query}`);
    return body.access_token;
  }

  getWaba(token: string, wabaId: string): Promise<GraphWaba> {
    return this.request(
      'GET',
      `/${encodeURIComponent(wabaId)}?fields=id,name,marketing_messages_onboarding_status`,
      token,
    );
  }

  /** The WABA's Marketing Messages API onboarding status and the business portfolio that owns it. */
  getMarketingMessagesStatus(token: string, wabaId: string): Promise<GraphWaba> {
    return this.request(
      'GET',
      `/${encodeURIComponent(wabaId)}?fields=id,marketing_messages_onboarding_status,owner_business_info`,
      token,
    );
  }

  /**
   * Meta's partner intent API: Meta emails the portfolio's admins an invitation to accept the Marketing
   * Messages API terms; `MM_LITE_TERMS_SIGNED` (account_update) follows once one does.
   */
  requestMarketingMessagesOnboarding(token: string, businessId: string): Promise<{ id: string }> {
    return this.request('POST', `/${encodeURIComponent(businessId)}/onboard_partners_to_mm_lite`, token, {});
  }

  /** Meta's pricing analytics of a WABA; `filters` are the field's modifiers (`.start(…).end(…)…`). */
  getPricingAnalytics(token: string, wabaId: string, filters: string): Promise<GraphPricingAnalytics> {
    const fields = encodeURIComponent(`currency,pricing_analytics${filters}`);
    return this.request('GET', `/${encodeURIComponent(wabaId)}?fields=${fields}`, token);
  }

  /** Meta counts template analytics only once a WABA has confirmed them (it cannot be undone). */
  enableTemplateInsights(token: string, wabaId: string): Promise<unknown> {
    return this.request('POST', `/${encodeURIComponent(wabaId)}?is_enabled_for_insights=true`, token, {});
  }

  /** One template's button taps (CLICKED) per day over [start, end), Unix seconds. */
  getTemplateClicks(
    token: string,
    wabaId: string,
    templateId: string,
    start: number,
    end: number,
  ): Promise<GraphTemplateAnalytics> {
    const query = new URLSearchParams({
      start: String(start),
      end: String(end),
      granularity: 'DAILY',
      metric_types: JSON.stringify(['CLICKED']),
      template_ids: JSON.stringify([templateId]),
    });
    return this.request('GET', `/${encodeURIComponent(wabaId)}/template_analytics?${query}`, token);
  }

  async listPhoneNumbers(token: string, wabaId: string): Promise<GraphPhoneNumber[]> {
    const body = await this.request<{ data: GraphPhoneNumber[] }>(
      'GET',
      `/${encodeURIComponent(wabaId)}/phone_numbers?fields=${PHONE_FIELDS}&limit=100`,
      token,
    );
    return body.data;
  }

  async subscribeApp(token: string, wabaId: string): Promise<void> {
    await this.request('POST', `/${encodeURIComponent(wabaId)}/subscribed_apps`, token, {});
  }

  async registerNumber(token: string, phoneNumberId: string, pin: string): Promise<void> {
    await this.request('POST', `/${encodeURIComponent(phoneNumberId)}/register`, token, {
      messaging_product: 'whatsapp',
      pin,
    });
  }

  createTemplate(
    token: string,
    wabaId: string,
    template: object,
  ): Promise<{ id: string; status: string; category: string }> {
    return this.request('POST', `/${encodeURIComponent(wabaId)}/message_templates`, token, template);
  }

  async editTemplate(token: string, templateId: string, changes: object): Promise<void> {
    await this.request('POST', `/${encodeURIComponent(templateId)}`, token, changes);
  }

  getTemplate(token: string, templateId: string): Promise<GraphTemplate> {
    return this.request(
      'GET',
      `/${encodeURIComponent(templateId)}?fields=id,name,language,status,category,components,rejected_reason,quality_score`,
      token,
    );
  }

  /** Every template of the WABA with its review state, read page by page (Meta's cursor paging). */
  async listTemplates(token: string, wabaId: string): Promise<GraphTemplateState[]> {
    const all: GraphTemplateState[] = [];
    let after: string | undefined;
    for (;;) {
      const query = new URLSearchParams({
        fields: 'id,name,language,status,rejected_reason,quality_score',
        limit: '100',
        ...(after ? { after } : {}),
      });
      const page = await this.request<{
        data: GraphTemplateState[];
        paging?: { cursors?: { after?: string }; next?: string };
      }>('GET', `/${encodeURIComponent(wabaId)}/message_templates?${query}`, token);
      all.push(...page.data);
      after = page.paging?.cursors?.after;
      if (!page.paging?.next || !after) return all;
    }
  }

  /** Deletes one language of a template (hsm_id) or, without it, every language of the name. */
  async deleteTemplate(token: string, wabaId: string, name: string, templateId?: string): Promise<void> {
    const query = new URLSearchParams({ name, ...(templateId ? { hsm_id: templateId } : {}) });
    await this.request('DELETE', `/${encodeURIComponent(wabaId)}/message_templates?${query}`, token);
  }

  /**
   * Meta's resumable upload, in one pass: open a session for the app, send the bytes from offset 0, get the
   * handle that a template's media header example names.
   */
  async uploadMedia(token: string, file: { name: string; type: string; bytes: Buffer }): Promise<string> {
    const query = new URLSearchParams({
      file_name: file.name,
      file_length: String(file.bytes.length),
      file_type: file.type,
    });
    const session = await this.request<{ id: string }>(
      'POST',
      `/${encodeURIComponent(this.options.appId)}/uploads?${query}`,
      token,
    );
    const uploaded = await this.request<{ h: string }>('POST', `/${session.id}`, undefined, file.bytes, {
      // The upload endpoint takes "OAuth", not "Bearer", and the offset to resume from.
      authorization: `OAuth ${token}`,
      file_offset: '0',
      'content-type': 'application/octet-stream',
    });
    return uploaded.h;
  }

  private async request<T>(
    method: string,
    path: string,
    token?: string,
    body?: GraphBody,
    extraHeaders: Record<string, string> = {},
  ): Promise<T> {
    let response: Response;
    try {
      response = await graphFetch(this.options, method, path, {
        token,
        body,
        headers: extraHeaders,
        timeoutMs: this.options.timeoutMs ?? 60_000,
      });
    } catch (error) {
      throw new GraphApiError(`The Cloud API could not be reached: ${(error as Error).message}`, 0, 0);
    }
    const text = await response.text();
    const parsed = text ? parseGraphJson(text) : {};
    if (parsed === undefined) {
      throw new GraphApiError(
        `The Cloud API answered ${response.status} with a body that is not JSON`,
        response.status,
        0,
      );
    }
    if (!response.ok) {
      const error = graphErrorOf(parsed);
      throw new GraphApiError(
        error?.message ?? `The Cloud API answered ${response.status}`,
        response.status,
        error?.code ?? 0,
        error?.error_subcode,
      );
    }
    return parsed as T;
  }
}
