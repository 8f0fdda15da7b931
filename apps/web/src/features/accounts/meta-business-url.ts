/** The account's page in Meta's WhatsApp Manager. */
export function metaBusinessUrl(wabaId: string): string {
  return `https://business.facebook.com/wa/manage/home/?waba_id=${encodeURIComponent(wabaId)}`;
}
