/** Meta's error envelope, as the Graph API (and the sandbox) send it. */
interface GraphErrorBody {
  error?: { message?: string; type?: string; code?: number; error_subcode?: number; fbtrace_id?: string };
}

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
}

export interface GraphWaba {
  id: string;
  name?: string;
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
].join(',');

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
    return this.request('GET', `/${encodeURIComponent(wabaId)}?fields=id,name`, token);
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

  private async request<T>(method: string, path: string, token?: string, body?: unknown): Promise<T> {
    const url = `${this.options.baseUrl}/${this.options.version}${path}`;
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      });
    } catch (error) {
      throw new GraphApiError(`The Cloud API could not be reached: ${(error as Error).message}`, 0, 0);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      throw new GraphApiError(
        `The Cloud API answered ${response.status} with a body that is not JSON`,
        response.status,
        0,
      );
    }
    if (!response.ok) {
      const error = (parsed as GraphErrorBody).error;
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
