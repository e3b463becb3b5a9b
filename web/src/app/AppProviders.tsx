import type { ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { SWRConfig } from 'swr';
import { ApiProvider } from '../lib/api/ApiProvider.tsx';
import { AuthProvider } from '../lib/auth/AuthProvider.tsx';
import { AnalyticsTracker } from './AnalyticsTracker.tsx';

// Single place for app-wide context: router, auth, API client, data cache, analytics.
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <BrowserRouter>
      <AuthProvider>
        <ApiProvider>
          {/* SWR already shares identical in-flight requests (spec §4); only retry pacing is set. */}
          <SWRConfig value={{ errorRetryInterval: 5_000, errorRetryCount: 3 }}>
            <AnalyticsTracker />
            {children}
          </SWRConfig>
        </ApiProvider>
      </AuthProvider>
    </BrowserRouter>
  );
}
