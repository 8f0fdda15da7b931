import type { SandboxContext } from './context';
import { invalidParameter, missingParameter } from './errors';
import { normalisePhoneNumber } from './phone-format';

export interface SignUpResult {
  waba_id: string;
  phone_number_id: string;
  business_id: string;
  code: string;
}

const MAX_BUSINESS_NAME_LENGTH = 128;

/** The state change behind both the Embedded Signup popup and the control API's shortcut. */
export function signUpBusiness(
  ctx: SandboxContext,
  input: {
    businessName: string | undefined;
    phoneNumber: string | undefined;
    /** Whether this signup accepts the MM API terms; the sandbox's setting when not said. */
    mmApiTerms?: boolean;
  },
): SignUpResult {
  const businessName = input.businessName?.trim();
  if (!businessName) throw missingParameter('business_name');
  if (businessName.length > MAX_BUSINESS_NAME_LENGTH) {
    throw invalidParameter(`business_name must be at most ${MAX_BUSINESS_NAME_LENGTH} characters`);
  }
  if (input.phoneNumber === undefined || input.phoneNumber.trim() === '') {
    throw missingParameter('phone_number');
  }
  const phoneDigits = normalisePhoneNumber(input.phoneNumber);
  if (phoneDigits === null) {
    throw invalidParameter(
      'phone_number must be an international number of 8 to 15 digits, e.g. +1 631 555 5555',
    );
  }
  const { waba, phoneNumber, code } = ctx.state.createBusiness({
    appId: ctx.appId,
    businessName,
    phoneDigits,
  });
  // The business accepted the Marketing Messages API terms in the same flow (Meta's Embedded Signup offers them).
  // No MM_LITE_TERMS_SIGNED webhook: the partner has not subscribed to the new WABA yet, so none would reach it.
  if (input.mmApiTerms ?? ctx.config.mmApiTermsAtSignup) {
    ctx.state.marketingMessages.setTerms(waba.businessId, 'TERM_OF_SERVICE_SIGNED');
  }
  return { waba_id: waba.id, phone_number_id: phoneNumber.id, business_id: waba.businessId, code: code.code };
}
