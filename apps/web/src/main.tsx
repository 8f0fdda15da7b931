import { createRoot } from 'react-dom/client';
import { startHerald } from './app/start';
import './index.css';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

// The app (router, store, layout and screens) is its own chunk, loaded when start needs it.
startHerald(createRoot(container), () => import('./app/app'));
