import { scriptJson } from './sdk-script';

export interface PopupPageOptions {
  appId: string;
  appValid: boolean;
  /** `extras.version` of the launch ('' when none was given, which Meta reads as v2). */
  esVersion: string;
  openerOrigin: string;
  session: string;
  completeUrl: string;
}

const PRESETS = [
  { name: "Jasper's Market", phone: '+1 631 555 5555' },
  { name: 'Lucky Shrub', phone: '+44 7700 900123' },
  { name: 'Northwind Bakery', phone: '+1 415 555 0132' },
];

/**
 * The Embedded Signup versions Meta still runs: v2, v3 and their public previews ended in October 2026
 * (Meta's "Versions" page), so a launch without `extras.version: 'v4'` ends in an error, as on Meta.
 */
export const EMBEDDED_SIGNUP_VERSIONS = ['v4', 'v4-public-preview'];

// The only step of the sandbox's flow; Meta's real flow has several.
const STEP = 'PHONE_NUMBER_SETUP';

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

const STYLE = `
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1c1e21;
    background: #f0f2f5; }
  header { background: #008069; color: #fff; padding: 14px 20px; font-weight: 600; }
  header small { display: block; font-weight: 400; opacity: .85; }
  main { max-width: 460px; margin: 20px auto; background: #fff; border-radius: 10px; padding: 20px 22px;
    box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  h1 { font-size: 18px; margin: 0 0 6px; }
  p.hint { margin: 0 0 16px; color: #65676b; font-size: 13px; }
  .presets { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 16px; }
  .presets button { border: 1px solid #ccd0d5; background: #f5f6f7; border-radius: 16px; padding: 4px 12px;
    font: inherit; font-size: 13px; cursor: pointer; }
  .presets button:hover { background: #e4e6eb; }
  label { display: block; font-weight: 600; font-size: 13px; margin: 12px 0 4px; }
  input { width: 100%; padding: 9px 11px; border: 1px solid #ccd0d5; border-radius: 6px; font: inherit; }
  input:focus { outline: 2px solid #25d366; border-color: transparent; }
  .actions { display: flex; justify-content: flex-end; gap: 10px; margin-top: 20px; }
  .actions button { font: inherit; font-weight: 600; border-radius: 6px; padding: 8px 18px; cursor: pointer; }
  .secondary { background: #e4e6eb; border: 0; color: #1c1e21; }
  .primary { background: #008069; border: 0; color: #fff; }
  .primary:disabled { opacity: .6; cursor: wait; }
  .error { color: #b3261e; font-size: 13px; margin-top: 12px; min-height: 1em; }
  .done { text-align: center; padding: 24px 0; }
`;

/** The sandbox's Embedded Signup popup: pick or type a business, then finish or cancel. */
export function popupPage(options: PopupPageOptions): string {
  const config = scriptJson({
    openerOrigin: options.openerOrigin,
    session: options.session,
    appId: options.appId,
    completeUrl: options.completeUrl,
    appValid: options.appValid,
    step: STEP,
  });
  const problem = !options.appValid
    ? `Invalid App ID: ${options.appId} is not this sandbox's app.`
    : !EMBEDDED_SIGNUP_VERSIONS.includes(options.esVersion)
      ? `Embedded Signup ${options.esVersion || 'v2'} is no longer available: versions before v4 ended in October 2026. Launch it with extras.version 'v4'.`
      : null;
  const form = !problem
    ? `<h1>Connect your WhatsApp Business account</h1>
    <p class="hint">Choose a sample business or type your own. The sandbox creates the WhatsApp Business
      account and phone number; nothing is sent to Meta.</p>
    <div class="presets" aria-label="Sample businesses">
      ${PRESETS.map(
        (p) =>
          `<button type="button" data-name="${escapeHtml(p.name)}" data-phone="${escapeHtml(p.phone)}">${escapeHtml(p.name)}</button>`,
      ).join('\n      ')}
    </div>
    <form id="signup" novalidate>
      <label for="business-name">Business name</label>
      <input id="business-name" name="business_name" autocomplete="organization" required maxlength="128">
      <label for="phone-number">Phone number</label>
      <input id="phone-number" name="phone_number" type="tel" placeholder="+1 631 555 5555" required>
      <div class="error" id="error" role="alert"></div>
      <div class="actions">
        <button type="button" class="secondary" id="cancel">Cancel</button>
        <button type="submit" class="primary" id="finish">Continue</button>
      </div>
    </form>`
    : `<h1>Something went wrong</h1>
    <p class="error" role="alert">${escapeHtml(problem)}</p>
    <div class="actions"><button type="button" class="secondary" id="cancel">Cancel</button></div>`;

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>WhatsApp Embedded Signup (sandbox)</title>
<style>${STYLE}</style>
</head>
<body>
<header>WhatsApp Business<small>Herald sandbox of Meta's Embedded Signup</small></header>
<main id="content">
    ${form}
</main>
<script>
(function () {
  'use strict';
  var CONFIG = ${config};
  var PROBLEM = ${scriptJson(problem)};

  function tell(message) {
    if (window.opener) window.opener.postMessage(JSON.stringify(message), CONFIG.openerOrigin);
  }

  function tellLogin(authResponse) {
    tell({ type: 'HERALD_SANDBOX_LOGIN', session: CONFIG.session, authResponse: authResponse });
  }

  function closeSoon(text) {
    document.getElementById('content').innerHTML = '<p class="done"></p>';
    document.querySelector('.done').textContent = text;
    setTimeout(function () { window.close(); }, 300);
  }

  document.getElementById('cancel').addEventListener('click', function () {
    var data = !PROBLEM
      ? { current_step: CONFIG.step }
      : CONFIG.appValid
        ? { error_message: PROBLEM, session_id: CONFIG.session, timestamp: String(Math.floor(Date.now() / 1000)) }
        : { error_message: 'Invalid App ID', error_id: '1349159', session_id: CONFIG.session,
            timestamp: String(Math.floor(Date.now() / 1000)) };
    tell({ type: 'WA_EMBEDDED_SIGNUP', event: 'CANCEL', data: data });
    tellLogin(null);
    closeSoon('Cancelled. You can close this window.');
  });

  if (PROBLEM) return;

  var nameInput = document.getElementById('business-name');
  var phoneInput = document.getElementById('phone-number');
  var errorBox = document.getElementById('error');
  var finishButton = document.getElementById('finish');

  Array.prototype.forEach.call(document.querySelectorAll('.presets button'), function (button) {
    button.addEventListener('click', function () {
      nameInput.value = button.getAttribute('data-name');
      phoneInput.value = button.getAttribute('data-phone');
    });
  });

  document.getElementById('signup').addEventListener('submit', function (event) {
    event.preventDefault();
    errorBox.textContent = '';
    finishButton.disabled = true;
    fetch(CONFIG.completeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: CONFIG.appId, business_name: nameInput.value, phone_number: phoneInput.value })
    })
      .then(function (response) {
        return response.json().then(function (body) { return { ok: response.ok, body: body }; });
      })
      .then(function (answer) {
        if (!answer.ok) {
          errorBox.textContent = (answer.body && answer.body.error && answer.body.error.message) || 'Sign-up failed';
          finishButton.disabled = false;
          return;
        }
        var b = answer.body;
        tell({ type: 'WA_EMBEDDED_SIGNUP', event: 'FINISH',
          data: { phone_number_id: b.phone_number_id, waba_id: b.waba_id, business_id: b.business_id } });
        tellLogin({ code: b.code, userID: null, expiresIn: null, graphDomain: 'facebook' });
        closeSoon('Connected. You can close this window.');
      })
      .catch(function () {
        errorBox.textContent = 'Could not reach the sandbox';
        finishButton.disabled = false;
      });
  });
})();
</script>
</body>
</html>
`;
}
