/**
 * The look of an in-app link. Its own module, without the router: the sign-in screen drawn before the app has
 * loaded (app/start.tsx) uses it on plain links, and a router import here would put the router in that screen's
 * JavaScript.
 */
export const textLinkClass = 'font-medium text-emerald-700 hover:text-emerald-800 hover:underline';
