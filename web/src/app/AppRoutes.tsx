import { Navigate, Route, Routes } from 'react-router';
import { Spinner } from '../components/Spinner.tsx';
import { useAuth } from '../lib/auth/AuthProvider.tsx';
import { lazyPage } from '../lib/lazyPage.ts';
import { AppLayout, PublicLayout } from './layouts.tsx';
import { Suspense, useState } from 'react';
import { DashboardErrorBoundary } from './PageErrorBoundary.tsx';
import { ProjectProvider } from '../lib/store/ProjectProvider.tsx';
import {
  DashboardLoads,
  HomeRemembering,
  KnownProject,
  KnownTarget,
  MembersOnly,
  ProjectIndex,
  PublicProjectGate,
  SharedProject,
} from './projectRoutes.tsx';
import { takeReturn } from '../lib/returnTo.ts';
// The commit view is in the main bundle: a lazy page shows its fallback for at least 300 ms
// (React's reveal throttle), a third of the view's budget of 1 s to be usable.
import { CommitPage } from '../pages/target/CommitPage.tsx';
import { AnonymousApiProvider } from '../lib/api/ApiProvider.tsx';

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

/** A target's pages that public projects show to everyone (read-only). */
const targetPages = (
  <>
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
    <Route path="commit/:commitSha" element={<CommitPage />} />
  </>
);

/** Signed in with a remembered link (opened while signed out): it opens instead. */
function ReturnAfterSignIn() {
  const [path] = useState(takeReturn);
  return path ? <Navigate to={path} replace /> : null;
}

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
          <Route path="*" element={<HomeRemembering />} />
        </Route>
        {/* The one addition: a public project's read-only pages (docs/public-projects.md). */}
        <Route
          path="project/:projectId"
          element={
            <AnonymousApiProvider>
              <PublicProjectGate />
            </AnonymousApiProvider>
          }
        >
          <Route index element={<ProjectIndex />} />
          <Route path="target/:targetName" element={<KnownTarget />}>
            {targetPages}
          </Route>
          <Route path="*" element={<HomeRemembering />} />
        </Route>
      </Routes>
    );
  }

  return (
    <ProjectProvider owner={user.id ?? user.email}>
      <ReturnAfterSignIn />
      <Routes>
        <Route
          element={
            <SharedProject>
              <AppLayout />
            </SharedProject>
          }
        >
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
            <Route
              path="settings"
              element={
                <MembersOnly>
                  <SettingsPage />
                </MembersOnly>
              }
            />
            <Route
              path="targets"
              element={
                <MembersOnly>
                  <TargetsPage />
                </MembersOnly>
              }
            />
            <Route path="target/:targetName" element={<KnownTarget />}>
              {targetPages}
              <Route
                path="region-config"
                element={
                  <MembersOnly>
                    <RegionConfigPage />
                  </MembersOnly>
                }
              />
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
