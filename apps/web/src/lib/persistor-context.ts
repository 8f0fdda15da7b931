import { createContext } from 'react';
import type { Persistor } from 'redux-persist';

/**
 * The app's persistor, so code that reloads the page can first flush pending writes to local storage
 * (redux-persist writes on a timer). Null in tests, which use a store without persistence.
 */
export const PersistorContext = createContext<Persistor | null>(null);
