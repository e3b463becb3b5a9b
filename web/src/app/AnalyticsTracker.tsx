import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { identifyUser, initAnalytics, resetUser, trackPage } from '../lib/analytics.ts';
import { useAuth } from '../lib/auth/AuthProvider.tsx';

/** Identifies the user and records page views once analytics is up (spec §4). */
export function AnalyticsTracker() {
  const { user, loading } = useAuth();
  const { pathname } = useLocation();

  // Keyed on identity, not the user object, which is replaced on every token refresh.
  const id = user?.id;
  const email = user?.email;
  const createdAt = user?.created_at;
  useEffect(() => {
    if (loading) return;
    void initAnalytics().then(() => {
      if (email) identifyUser({ id, email, created_at: createdAt });
      else resetUser();
    });
  }, [id, email, createdAt, loading]);

  useEffect(() => {
    void initAnalytics().then(() => trackPage(pathname, document.title));
  }, [pathname]);

  return null;
}
