import { createContext, StrictMode, useContext } from 'react';
import type { MouseEvent, ReactNode } from 'react';
import type { Root } from 'react-dom/client';
import type { LoginResponse } from '@herald/contracts';
import { AuthCard } from '../components/auth-card';
import { textLinkClass } from '../components/text-link-class';
import { SignInForm } from '../features/auth/components/sign-in-form';
import { AppToaster } from '../lib/app-toaster';
import { redirectPathFrom } from '../lib/redirect-state';
import type * as AppModule from './app';
import { useDocumentTitle } from './document-title';
import { PageLoading } from './page-loading';

/**
 * The path whose first screen is drawn before the app's code (router, store, layout) has loaded:
 * sign-in, the first screen of most visits. Every other path opens the app at once.
 */
export const FIRST_SCREEN_PATH = '/';

export type LoadApp = () => Promise<typeof AppModule>;

type Opening = { path?: { to: string; replace: boolean }; session?: LoginResponse };

/** Opens the app at a path (a link of the first screen): the app's router takes over the page. */
const OpenPathContext = createContext<(to: string) => void>(() => {});

/**
 * A link of the first sign-in screen: a real link (a new tab, a copied address work), which a plain click
 * follows inside the page by opening the app at its path, as the app's own links do.
 */
function FirstScreenLink({ to, children }: { to: string; children: ReactNode }) {
  const openPath = useContext(OpenPathContext);
  function follow(event: MouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    openPath(to);
  }
  return (
    <a href={to} className={textLinkClass} onClick={follow}>
      {children}
    </a>
  );
}

type FirstSignInProps = {
  onSignedIn: (answer: LoginResponse) => Promise<void>;
  onOpenPath: (to: string) => void;
  /** The user started on the form: the app's code can download while they type. */
  onEngaged: () => void;
};

function FirstSignIn({ onSignedIn, onOpenPath, onEngaged }: FirstSignInProps) {
  useDocumentTitle('Sign in');
  return (
    <OpenPathContext value={onOpenPath}>
      <div className="contents" onFocus={onEngaged}>
        <SignInForm onSignedIn={onSignedIn} Link={FirstScreenLink} />
      </div>
      <AppToaster />
    </OpenPathContext>
  );
}

function AppLoadFailed() {
  useDocumentTitle('Herald could not load');
  return (
    <AuthCard
      title="Herald could not load"
      subtitle="Part of the app did not download. Check your connection, then reload the page."
    >
      <a href={window.location.href} className={textLinkClass}>
        Reload the page
      </a>
    </AuthCard>
  );
}

/**
 * Starts the web app in `root`. On the sign-in path the form is drawn at once with no router and no
 * store (react-dom and the form only), and the app is loaded when it is needed: on sign-in, which hands it the
 * session, or on a link to another screen. Any other path shows the loading state and opens the app directly.
 */
export function startHerald(root: Root, loadApp: LoadApp): void {
  let loading: ReturnType<LoadApp> | undefined;
  // One download, shared by the early fetch and the opening; a failed one is tried again next time.
  const app = () =>
    (loading ??= loadApp().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));

  async function openApp({ path, session }: Opening): Promise<void> {
    const { App, keepSession, openPath } = await app();
    if (session) await keepSession(session);
    if (path) await openPath(path.to, { replace: path.replace });
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  }

  if (window.location.pathname !== FIRST_SCREEN_PATH) {
    root.render(<PageLoading />);
    openApp({}).catch((error: unknown) => {
      console.error('The app failed to load', error);
      root.render(<AppLoadFailed />);
    });
    return;
  }

  // Where the guard sent the visitor from, if this page was reloaded after it did (react-router keeps a
  // location's state in the history entry, under `usr`).
  const remembered = (window.history.state as { usr?: unknown } | null)?.usr;
  root.render(
    <StrictMode>
      <FirstSignIn
        // A failure here rejects into the form, which says sign-in failed; the next try loads again.
        onSignedIn={(session) =>
          openApp({ session, path: { to: redirectPathFrom(remembered), replace: true } })
        }
        onOpenPath={(to) => {
          openApp({ path: { to, replace: false } }).catch((error: unknown) => {
            console.error('The app failed to load', error);
            window.location.assign(to);
          });
        }}
        onEngaged={() => void app().catch(() => {})}
      />
    </StrictMode>,
  );
}
