// The store's shape and how it is made; the app's one persisted instance is made by the app shell (app/app.tsx),
// so tests and other importers get no persisted store as a side effect.
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { FLUSH, PAUSE, PERSIST, PURGE, REGISTER, REHYDRATE, persistReducer } from 'redux-persist';
// The ES build: the bundler's interop with lib/ (CommonJS `exports.default`) yields the module object, not
// the storage, and rehydration then fails with "getItem is not a function".
import storage from 'redux-persist/es/storage';
import { authReducer } from './auth-slice';
import type { AuthState } from './auth-slice';
import { wabaReducer } from './waba-slice';
import type { WabaState } from './waba-slice';
import { api } from './api';

/** Give up waiting for stored state after 5 s and start from the initial state. */
export const PERSIST_TIMEOUT_MS = 5000;

// Two persisted reducers, so local storage holds exactly the keys 'persist:auth' and 'persist:waba'.
const rootReducer = combineReducers({
  auth: persistReducer({ key: 'auth', storage, timeout: PERSIST_TIMEOUT_MS }, authReducer),
  waba: persistReducer({ key: 'waba', storage, timeout: PERSIST_TIMEOUT_MS }, wabaReducer),
  // The server-data cache is not persisted: it is refetched on load.
  [api.reducerPath]: api.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/** Plain slice states (without redux-persist's `_persist` marker), e.g. for tests. */
export type PreloadedState = { auth?: AuthState; waba?: WabaState };

export function makeStore(preloadedState?: PreloadedState) {
  return configureStore({
    reducer: rootReducer,
    // A persisted reducer passes state without `_persist` straight to the slice reducer.
    preloadedState: preloadedState as Partial<RootState> | undefined,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        // redux-persist's own actions carry functions (register, rehydrate callbacks).
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      }).concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
