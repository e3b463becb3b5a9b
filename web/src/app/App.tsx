import { AppProviders } from './AppProviders.tsx';
import { AppRoutes } from './AppRoutes.tsx';

export function App() {
  return (
    <AppProviders>
      <AppRoutes />
    </AppProviders>
  );
}
