import { Suspense, useCallback, useState, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Header } from '../components/Header.tsx';
import { LoadingBar } from '../components/LoadingBar.tsx';
import { MenuButton, SideMenu } from '../components/SideMenu.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { useProjects } from '../lib/data.ts';
import { PageErrorBoundary } from './PageErrorBoundary.tsx';

/** The first Tab stop of every page: straight to the content, past header and menu. */
function SkipLink() {
  return (
    <a className="skip-link" href="#main">
      Skip to content
    </a>
  );
}

/** Signed-out shell: header over full-width public pages. */
export function PublicLayout() {
  return (
    <div className="shell">
      <SkipLink />
      <Header />
      <main className="public-main" id="main" tabIndex={-1}>
        <Page />
      </main>
    </div>
  );
}

/**
 * Signed-in shell: header, global loading bar, side menu (a drawer behind a menu button on
 * narrow screens). Projects load as soon as the user is
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
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  return (
    <div className="shell">
      <SkipLink />
      <Header menu={<MenuButton open={menuOpen} onToggle={() => setMenuOpen(!menuOpen)} />} />
      <LoadingBar />
      <div className="app-body">
        <SideMenu open={menuOpen} onClose={closeMenu} />
        <main className="app-main" id="main" tabIndex={-1}>
          {children}
        </main>
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
