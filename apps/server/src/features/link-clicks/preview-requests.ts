/**
 * Requests that open a link without a person behind them: link-preview fetchers (WhatsApp's own when a link is
 * in a message body, other apps' when a link is shared on), crawlers, browser prefetch and HEAD checks. They
 * still get the redirect (a preview shows the destination), but no click is recorded for them.
 */
const PREVIEW_AGENTS =
  /^WhatsApp\/|facebookexternalhit|facebookcatalog|meta-externalagent|Slackbot|Twitterbot|TelegramBot|Discordbot|LinkedInBot|SkypeUriPreview|Embedly|redditbot|Pinterest|Applebot|Googlebot|bingbot|YandexBot|DuckDuckBot|Baiduspider|ia_archiver|Google-PageRenderer|Iframely|vkShare|Viber|Snapchat|Mastodon|bot\b|crawler|spider/i;

export function isPreviewRequest(request: {
  method: string;
  headers: Record<string, string | string[] | undefined>;
}): boolean {
  if (request.method !== 'GET') return true;
  const header = (name: string) => {
    const value = request.headers[name];
    return (Array.isArray(value) ? value.join(',') : (value ?? '')).toLowerCase();
  };
  if (
    /prefetch|prerender|preview/.test(`${header('sec-purpose')} ${header('purpose')} ${header('x-purpose')}`)
  )
    return true;
  if (header('x-moz') === 'prefetch') return true;
  const agent = request.headers['user-agent'];
  return typeof agent === 'string' && PREVIEW_AGENTS.test(agent);
}
