import {
  GraphApiError,
  type GraphClient,
  type GraphPhoneNumber,
  type GraphWaba,
} from '../../graph/graph-client';
import { HttpError } from '../../http-error';

export interface OnboardedAccount {
  businessToken: string;
  waba: GraphWaba;
  numbers: GraphPhoneNumber[];
}

/** A Cloud API failure becomes a 502 that carries Meta's own message, so the user sees what Meta said. */
export function cloudApiFailure(error: unknown): never {
  if (error instanceof GraphApiError) {
    throw new HttpError(502, `WhatsApp Cloud API error: ${error.message}`);
  }
  throw error;
}

/**
 * The Cloud API half of linking an account after Embedded Signup: exchange the one-time code, read the
 * account and its numbers, subscribe our app to its webhooks and register the chosen number with a
 * two-step PIN. Nothing is stored here; the caller writes everything in one transaction afterwards.
 */
export async function onboardAtCloudApi(
  graph: GraphClient,
  request: { code: string; wabaId: string; phoneNumberId: string; registerPin: string },
): Promise<OnboardedAccount> {
  try {
    const businessToken = await graph.exchangeCode(request.code);
    const [waba, numbers] = await Promise.all([
      graph.getWaba(businessToken, request.wabaId),
      graph.listPhoneNumbers(businessToken, request.wabaId),
    ]);
    if (!numbers.some((number) => number.id === request.phoneNumberId)) {
      throw HttpError.field(
        400,
        'phone_number_id',
        `Phone number ${request.phoneNumberId} does not belong to WhatsApp Business Account ${request.wabaId}`,
      );
    }
    await graph.subscribeApp(businessToken, request.wabaId);
    await graph.registerNumber(businessToken, request.phoneNumberId, request.registerPin);
    return { businessToken, waba, numbers };
  } catch (error) {
    return cloudApiFailure(error);
  }
}
