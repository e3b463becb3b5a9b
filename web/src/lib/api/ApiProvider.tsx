import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '../auth/AuthProvider.tsx';
import { authBackend } from '../auth/backend.ts';
import { coreUrl } from '../config.ts';
import { rememberReturn } from '../returnTo.ts';
import { createApiClient } from './client.ts';
import { coreApi, type CoreApi } from './core.ts';

const ApiContext = createContext<CoreApi | null>(null);

/** One API client for the app; a lost session signs out locally and goes to '/' (spec §8). */
export function ApiProvider({ children }: { children: ReactNode }) {
  const { clearSession } = useAuth();
  const navigate = useNavigate();
  const api = useMemo(
    () =>
      coreApi(
        createApiClient({
          coreUrl,
          getSession: () => authBackend.getSession(),
          refreshSession: () => authBackend.refreshSession(),
          onSessionLost(message) {
            console.warn(message);
            // Signing in again returns to the page the session was lost on.
            rememberReturn(`${window.location.pathname}${window.location.search}`);
            clearSession();
            void navigate('/', { replace: true });
          },
        }),
      ),
    [clearSession, navigate],
  );
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

const noSession = async () => null;

/** The client of public projects' pages for signed-out visitors: no token, no session to lose. */
export function AnonymousApiProvider({ children }: { children: ReactNode }) {
  const api = useMemo(
    () =>
      coreApi(
        createApiClient({
          coreUrl,
          anonymous: true,
          getSession: noSession,
          refreshSession: noSession,
          onSessionLost: () => undefined,
        }),
      ),
    [],
  );
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

export function useCoreApi(): CoreApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useCoreApi must be used within an ApiProvider');
  return api;
}
