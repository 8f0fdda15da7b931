import type { LoginResponse } from '@herald/contracts';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { persistStore } from 'redux-persist';
import { PersistGate } from 'redux-persist/integration/react';
import { saveSignIn } from '../features/auth/sign-in-session';
import { AppToaster } from '../lib/app-toaster';
import { PersistorContext } from '../lib/persistor-context';
import { makeStore } from '../lib/store';
import { createAppRouter } from './router';

// The app's one store (persisted in local storage) and router. They are made when this module first runs: when
// main.tsx opens the app, or when the first sign-in screen fetches the app ahead while the user types.
const store = makeStore();
const persistor = persistStore(store);
const router = createAppRouter();

export function App() {
  return (
    <Provider store={store}>
      <PersistorContext value={persistor}>
        {/* Routes render only after the session is read back, so the guard sees a stored token. */}
        <PersistGate loading={null} persistor={persistor}>
          <RouterProvider router={router} />
        </PersistGate>
        <AppToaster navigation={router} />
      </PersistorContext>
    </Provider>
  );
}

/** Resolves once redux-persist has read the stored session back (a session saved before that would be overwritten). */
function rehydrated(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => persistor.getState().bootstrapped;
    if (done()) return resolve();
    const unsubscribe = persistor.subscribe(() => {
      if (!done()) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * Hands the app a session that the first sign-in screen obtained before the app was loaded (main.tsx): saved into
 * the store as the routed sign-in page saves it, then written to local storage at once so a reload keeps it.
 */
export async function keepSession(answer: LoginResponse): Promise<void> {
  await rehydrated();
  saveSignIn(store, answer);
  await persistor.flush();
}

/** Moves the app's router to `path` before the app is shown (a replaced history entry, or a new one). */
export function openPath(path: string, { replace }: { replace: boolean }): Promise<void> {
  return router.navigate(path, { replace });
}
