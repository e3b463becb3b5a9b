import { Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { Spinner } from '../components/Spinner.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';

/** Shell shared by every screen: header now, side menu and footer as the app grows. */
export function RootLayout() {
  return (
    <div className="shell">
      <header className="topbar">
        <Link to="/" className="topbar__logo" aria-label="Memtrail home">
          <span className="topbar__mark" aria-hidden="true" />
          Memtrail
        </Link>
      </header>
      <main className="content">
        {/* The boundary sits inside the shell so a broken page keeps the header usable. */}
        <ErrorBoundary>
          <Suspense fallback={<Spinner message="Loading..." />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
    </div>
  );
}
