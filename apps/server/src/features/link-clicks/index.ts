// What other parts of Herald use of tracked links (features meet only through index.ts).
export { applyLinkClicks } from './link-click-webhooks';
export { linkRedirectRoutes } from './link-redirect';
export { linkSettingsRoutes } from './routes';
