import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { PersistGate } from 'redux-persist/integration/react';
import { AppToaster } from './app-toaster';
import { PersistorContext } from './persistor-context';
import { createAppRouter } from './router';
import { persistor, store } from './store';

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
