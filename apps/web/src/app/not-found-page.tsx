import { Link } from 'react-router';
import { primaryButtonClass } from '../components/button-classes';

export function NotFoundPage() {
  return (
    <main className="flex min-h-full items-center justify-center bg-slate-50 px-4 py-12">
      <section className="w-full max-w-lg text-center">
        <p className="text-sm font-semibold text-emerald-700">404</p>
        <h1 className="mt-2 text-3xl font-semibold tracking-tight text-slate-900">Page not found</h1>
        <p className="mt-3 text-sm text-slate-500">The page you are looking for does not exist.</p>
        <Link to="/" className={`${primaryButtonClass} mt-6`}>
          Go home
        </Link>
      </section>
    </main>
  );
}
