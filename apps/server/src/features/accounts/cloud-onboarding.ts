import { META_ERROR } from '@herald/contracts';
import {
  GraphApiError,
  type GraphClient,
  type GraphPhoneNumber,
  type GraphWaba,
} from '../../graph/graph-client';
import { HttpError } from '../../http-error';

/** What a proven Embedded Signup gives: the customer's business token, their account and its numbers. */
export interface ProvenSignup {
  businessToken: string;
  waba: GraphWaba;
  numbers: GraphPhoneNumber[];
}

export const INVALID_CODE_MESSAGE =
  'The Embedded Signup code is invalid or has expired. Start the signup again.';

/** A Cloud API failure becomes a 502 that carries Meta's own message, so the user sees what Meta said. */
export function cloudApiFailure(error: unknown): never {
  if (error instanceof GraphApiError) {
    throw new HttpError(502, `WhatsApp Cloud API error: ${error.message}`);
  }
  throw error;
}

/**
 * Meta refusing the request itself (HTTP 4xx with an OAuthException: 100 invalid parameter, e.g. a code never
 * issued, already used or expired, or an id the token does not cover; 190 invalid token), as opposed to Meta
 * failing (5xx, unreachable) or refusing our app's own credentials (101, 1), which stay 502.
 */
function refusedRequest(error: unknown): boolean {
  return (
    error instanceof GraphApiError &&
    error.httpStatus >= 400 &&
    error.httpStatus < 500 &&
    (error.code === META_ERROR.invalidParameter || error.code === META_ERROR.accessTokenExpired)
  );
}

/** The request's fields a refusal names: sign-up sends them at the top level, PUT inside `payload`. */
export interface SignupFields {
  code: string;
  phoneNumberId: string;
}
const TOP_LEVEL_FIELDS: SignupFields = { code: 'code', phoneNumberId: 'phone_number_id' };

/**
 * The proof half of linking an account after Embedded Signup, which changes nothing at Meta: exchange the
 * one-time code (so the caller holds a code Meta issued to our app) and read, with the token it gives, the
 * account and its numbers (so the code was issued for that account and the number is one of its). A code
 * Meta refuses answers 400 naming `code`; only Meta failing answers 502.
 */
export async function proveEmbeddedSignup(
  graph: GraphClient,
  request: { code: string; wabaId: string; phoneNumberId: string },
  fields: SignupFields = TOP_LEVEL_FIELDS,
): Promise<ProvenSignup> {
  let businessToken: string;
  try {
    businessToken = await graph.exchangeCode(request.code);
  } catch (error) {
    if (refusedRequest(error)) throw HttpError.field(400, fields.code, INVALID_CODE_MESSAGE);
    return cloudApiFailure(error);
  }
  let waba: GraphWaba;
  let numbers: GraphPhoneNumber[];
  try {
    [waba, numbers] = await Promise.all([
      graph.getWaba(businessToken, request.wabaId),
      graph.listPhoneNumbers(businessToken, request.wabaId),
    ]);
  } catch (error) {
    if (refusedRequest(error)) {
      throw HttpError.field(
        400,
        fields.code,
        `The Embedded Signup code was not issued for WhatsApp Business Account ${request.wabaId}. Start the signup again.`,
      );
    }
    return cloudApiFailure(error);
  }
  if (!numbers.some((number) => number.id === request.phoneNumberId)) {
    throw HttpError.field(
      400,
      fields.phoneNumberId,
      `Phone number ${request.phoneNumberId} does not belong to WhatsApp Business Account ${request.wabaId}`,
    );
  }
  return { businessToken, waba, numbers };
}

/**
 * The changing half, run only once every check of the request has passed: subscribe our app to the account's
 * webhooks and register the chosen number with its two-step PIN. Nothing is stored here; the caller writes
 * everything in one transaction afterwards.
 */
export async function activateAtCloudApi(
  graph: GraphClient,
  proven: ProvenSignup,
  request: { wabaId: string; phoneNumberId: string; registerPin: string },
): Promise<void> {
  try {
    await graph.subscribeApp(proven.businessToken, request.wabaId);
    await graph.registerNumber(proven.businessToken, request.phoneNumberId, request.registerPin);
  } catch (error) {
    cloudApiFailure(error);
  }
}
