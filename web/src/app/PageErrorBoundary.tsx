import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { retryRender } from '../lib/loadError.ts';
import { ErrorBoundary, ErrorScreen } from './ErrorBoundary.tsx';

/** Error screen for a whole page (spec §2 'Page Error'). */
export function PageErrorBoundary({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (
    <ErrorBoundary
      resetKey={pathname}
      fallback={(reset) => (
        <ErrorScreen
          title="Page Error"
          text="Something went wrong while loading this page. This could be due to a temporary issue or a problem with the page content."
          actions={[
            { label: 'Go Home', onClick: () => void navigate('/') },
            { label: 'Refresh Page', onClick: () => window.location.reload(), secondary: true },
            { label: 'Try Again', onClick: reset, secondary: true },
          ]}
        />
      )}
    >
      {children}
    </ErrorBoundary>
  );
}

/**
 * Error screen for the dashboard's content (spec §2 'Dashboard Error'): render errors and failed
 * loads; Retry reloads what failed first.
 */
export function DashboardErrorBoundary({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (
    <ErrorBoundary
      resetKey={pathname}
      fallback={(reset, error) => (
        <ErrorScreen
          title="Dashboard Error"
          text="There was an error loading the dashboard content. This might be due to data loading issues or a temporary problem."
          actions={[
            { label: 'Go Back', onClick: () => void navigate(-1), secondary: true },
            { label: 'Retry', onClick: () => void retryRender(error, reset) },
          ]}
        />
      )}
    >
      {children}
    </ErrorBoundary>
  );
}
