/** JSON that is also safe inside an HTML <script> element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * The stand-in for Meta's `connect.facebook.net/en_US/sdk.js`: the same `FB.init` / `FB.login` surface,
 * but the popup is the sandbox's own page. The login callback is fed through a private postMessage type
 * that only this shim reads; the `WA_EMBEDDED_SIGNUP` messages are left for the page itself, as Meta's are.
 */
export function sdkScript(sandboxUrl: string): string {
  return `/* Herald sandbox: Facebook JS SDK shim for WhatsApp Embedded Signup */
(function () {
  'use strict';
  var SANDBOX_URL = ${scriptJson(sandboxUrl)};
  var SANDBOX_ORIGIN = new URL(SANDBOX_URL).origin;
  var settings = null;

  function notConnected() {
    return { authResponse: null, status: 'unknown' };
  }

  function randomId() {
    return Math.random().toString(36).slice(2) + Date.now().toString(36);
  }

  window.FB = {
    init: function (options) {
      if (!options || !options.appId) {
        console.error('FB.init: appId is required');
        return;
      }
      settings = { appId: String(options.appId), version: options.version || 'v25.0' };
    },
    getLoginStatus: function (callback) {
      callback(notConnected());
    },
    login: function (callback, options) {
      if (!settings) {
        console.error('FB.login() called before FB.init().');
        return;
      }
      options = options || {};
      var extras = options.extras || {};
      var session = randomId();
      var finished = false;
      var watcher;
      var query = new URLSearchParams({
        app_id: settings.appId,
        origin: window.location.origin,
        session: session,
        config_id: options.config_id ? String(options.config_id) : '',
        feature_type: extras.featureType ? String(extras.featureType) : '',
        // The Embedded Signup flow's own version (v4 now); Meta's v2 had none, so none means v2.
        es_version: extras.version ? String(extras.version) : '',
        version: settings.version
      });

      function finish(response) {
        if (finished) return;
        finished = true;
        window.removeEventListener('message', onMessage);
        clearInterval(watcher);
        if (typeof callback === 'function') callback(response);
      }

      function onMessage(event) {
        if (event.origin !== SANDBOX_ORIGIN || typeof event.data !== 'string') return;
        var message;
        try {
          message = JSON.parse(event.data);
        } catch (e) {
          return;
        }
        if (!message || message.type !== 'HERALD_SANDBOX_LOGIN' || message.session !== session) return;
        finish(message.authResponse ? { authResponse: message.authResponse, status: 'connected' } : notConnected());
      }

      window.addEventListener('message', onMessage);
      var popup = window.open(
        SANDBOX_URL + '/embedded-signup?' + query.toString(),
        'herald_sandbox_embedded_signup',
        'popup,width=520,height=680'
      );
      if (!popup) {
        finish(notConnected());
        return;
      }
      watcher = setInterval(function () {
        if (!popup.closed) return;
        clearInterval(watcher);
        // The popup's last postMessage may still be queued behind its closing; wait for it before giving up.
        setTimeout(function () {
          finish(notConnected());
        }, 500);
      }, 250);
    }
  };

  if (typeof window.fbAsyncInit === 'function') window.fbAsyncInit();
})();
`;
}
