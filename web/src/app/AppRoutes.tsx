import { Navigate, Route, Routes } from 'react-router';
import { Spinner } from '../components/Spinner.tsx';
import { useAuth } from '../lib/auth/AuthProvider.tsx';
import { lazyPage } from '../lib/lazyPage.ts';
import { AppLayout, PublicLayout } from './layouts.tsx';
import { Suspense } from 'react';
import { DashboardErrorBoundary } from './PageErrorBoundary.tsx';
import { ProjectProvider } from '../lib/store/ProjectProvider.tsx';
import { DashboardLoads, KnownProject, ProjectIndex } from './projectRoutes.tsx';

// Every page is its own chunk so the initial download stays the shell plus the libraries.
const HomePage = lazyPage(() => import('../pages/home/HomePage.tsx'), 'HomePage');
const TutorialPage = lazyPage(() => import('../pages/TutorialPage.tsx'), 'TutorialPage');
const PricingPage = lazyPage(() => import('../pages/PricingPage.tsx'), 'PricingPage');
const AuthPage = lazyPage(() => import('../pages/auth/AuthPage.tsx'), 'AuthPage');
const ResetPasswordPage = lazyPage(
  () => import('../pages/auth/ResetPasswordPage.tsx'),
  'ResetPasswordPage',
);
const ProjectsPage = lazyPage(() => import('../pages/ProjectsPage.tsx'), 'ProjectsPage');
const DashboardPage = lazyPage(() => import('../pages/target/DashboardPage.tsx'), 'DashboardPage');
const CommitPage = lazyPage(() => import('../pages/target/CommitPage.tsx'), 'CommitPage');
const ComparePage = lazyPage(() => import('../pages/target/ComparePage.tsx'), 'ComparePage');
const SymbolsPage = lazyPage(() => import('../pages/target/SymbolsPage.tsx'), 'SymbolsPage');
const RegionConfigPage = lazyPage(
  () => import('../pages/target/RegionConfigPage.tsx'),
  'RegionConfigPage',
);
const SettingsPage = lazyPage(() => import('../pages/settings/SettingsPage.tsx'), 'SettingsPage');
const TargetsPage = lazyPage(() => import('../pages/TargetsPage.tsx'), 'TargetsPage');
const InvitationPage = lazyPage(() => import('../pages/InvitationPage.tsx'), 'InvitationPage');
const PendingInvitation = lazyPage(
  () => import('../pages/InvitationPage.tsx'),
  'PendingInvitation',
);
const OrganizationPage = lazyPage(
  () => import('../pages/organization/OrganizationPage.tsx'),
  'OrganizationPage',
);

const pricing = (
  <Suspense fallback={<Spinner message="Loading pricing..." />}>
    <PricingPage />
  </Suspense>
);

export function AppRoutes() {
  const { loading, user } = useAuth();
  if (loading) return <Spinner message="Loading..." />;

  if (!user) {
    return (
      <Routes>
        <Route element={<PublicLayout />}>
          <Route index element={<HomePage />} />
          <Route path="tutorial" element={<TutorialPage />} />
          <Route path="pricing" element={pricing} />
          <Route path="auth" element={<AuthPage />} />
          {/* The mailed reset link's landing page (spec §7: /reset-password on our origin). */}
          <Route path="reset-password" element={<ResetPasswordPage />} />
          {/* A mailed invitation's landing page: sign in or up, then accept. */}
          <Route path="invitations/:token" element={<InvitationPage />} />
          {/* Spec §2: any other path, project pages included, goes to the home page. */}
          <Route path="*" element={<Navigate to="/" replace />} />
        </Route>
      </Routes>
    );
  }

  return (
    <ProjectProvider owner={user.id ?? user.email}>
      <Routes>
        <Route element={<AppLayout />}>
          <Route
            index
            element={
              <>
                <PendingInvitation />
                <ProjectsPage />
              </>
            }
          />
          <Route path="organization" element={<OrganizationPage />} />
          <Route path="invitations/:token" element={<InvitationPage />} />
          <Route path="project/:projectId" element={<KnownProject />}>
            <Route index element={<ProjectIndex />} />
            <Route path="settings" element={<SettingsPage />} />
            <Route path="targets" element={<TargetsPage />} />
            <Route path="target/:targetName">
              <Route
                index
                element={
                  <DashboardErrorBoundary>
                    <DashboardLoads>
                      <DashboardPage />
                    </DashboardLoads>
                  </DashboardErrorBoundary>
                }
              />
              <Route path="symbols" element={<SymbolsPage />} />
              <Route path="compare" element={<ComparePage />} />
              <Route path="region-config" element={<RegionConfigPage />} />
              <Route path="commit/:commitSha" element={<CommitPage />} />
            </Route>
          </Route>
          <Route path="tutorial" element={<TutorialPage />} />
          <Route path="pricing" element={pricing} />
          <Route path="reset-password" element={<ResetPasswordPage />} />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Route>
      </Routes>
    </ProjectProvider>
  );
}
