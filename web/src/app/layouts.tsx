import { Suspense, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Header } from '../components/Header.tsx';
import { LoadingBar } from '../components/LoadingBar.tsx';
import { SideMenu } from '../components/SideMenu.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { useProjects } from '../lib/data.ts';
import { PageErrorBoundary } from './PageErrorBoundary.tsx';

/** Signed-out shell: header over full-width public pages. */
export function PublicLayout() {
  return (
    <div className="shell">
      <Header />
      <main className="public-main">
        <Page />
      </main>
    </div>
  );
}

/**
 * Signed-in shell: header, global loading bar, side menu. Projects load as soon as the user is
 * signed in (except on symbol pages, which load their own data first) and gate the pages.
 */
export function AppLayout() {
  const { pathname } = useLocation();
  const { data, error, isLoading, refresh } = useProjects(!pathname.includes('/symbols'));

  let content;
  if (isLoading && !data) {
    content = <Spinner message="Loading projects..." />;
  } else if (error && !data) {
    content = (
      <div className="load-error" role="alert">
        <p>Error: {error}</p>
        <button type="button" className="button button--primary" onClick={() => void refresh()}>
          Retry
        </button>
      </div>
    );
  } else {
    content = <Page />;
  }
  return <AppShell>{content}</AppShell>;
}

/**
 * A public project's pages for signed-out visitors: the signed-in shell, whose side menu shows
 * only the read-only pages, without the projects list.
 */
export function ReadOnlyLayout() {
  return (
    <AppShell>
      <Page />
    </AppShell>
  );
}

function AppShell({ children }: { children: ReactNode }) {
  return (
    <div className="shell">
      <Header />
      <LoadingBar />
      <div className="app-body">
        <SideMenu />
        <main className="app-main">{children}</main>
      </div>
    </div>
  );
}

function Page() {
  return (
    <PageErrorBoundary>
      <Suspense fallback={<Spinner message="Loading..." />}>
        <Outlet />
      </Suspense>
    </PageErrorBoundary>
  );
}
