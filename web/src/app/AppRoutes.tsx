import { Navigate, Route, Routes } from 'react-router';
import { lazyPage } from '../lib/lazyPage.ts';
import { RootLayout } from './RootLayout.tsx';

// Every page is its own chunk so the initial download stays the shell plus the libraries.
const HomePage = lazyPage(() => import('../pages/HomePage.tsx'), 'HomePage');

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<HomePage />} />
        {/* Spec §2: any other path redirects to the home page. */}
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
