import type { PhoneNumber, Waba } from './state';

/** The Graph JSON of a phone number node, with every field the sandbox models. */
export function phoneNumberNode(phone: PhoneNumber) {
  return {
    id: phone.id,
    display_phone_number: phone.displayPhoneNumber,
    verified_name: phone.verifiedName,
    code_verification_status: phone.codeVerificationStatus,
    quality_rating: phone.qualityRating,
    platform_type: phone.platformType,
    throughput: { level: phone.throughputLevel },
    last_onboarded_time: phone.lastOnboardedTime,
    // Deprecated since limits moved to the portfolio; the sandbox answers the portfolio's tier in it too.
    messaging_limit_tier: phone.businessManagerMessagingLimit,
    whatsapp_business_manager_messaging_limit: phone.businessManagerMessagingLimit,
    status: phone.status,
    name_status: phone.nameStatus,
  };
}

export function wabaNode(waba: Waba) {
  return {
    id: waba.id,
    name: waba.name,
    currency: waba.currency,
    timezone_id: waba.timezoneId,
    message_template_namespace: waba.messageTemplateNamespace,
  };
}
