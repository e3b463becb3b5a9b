import type { ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { SWRConfig } from 'swr';

// Single place for app-wide context: auth, analytics and the API client join here later.
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <BrowserRouter>
      {/* SWR already shares identical in-flight requests (spec §4); only retry pacing is set. */}
      <SWRConfig value={{ errorRetryInterval: 5_000, errorRetryCount: 3 }}>{children}</SWRConfig>
    </BrowserRouter>
  );
}
