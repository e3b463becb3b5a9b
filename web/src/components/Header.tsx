import type { ReactNode } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { useAuth } from '../lib/auth/AuthProvider.tsx';
import { LogoMark } from './Logo.tsx';
import { OrganizationSwitcher } from './OrganizationSwitcher.tsx';

const navClass = ({ isActive }: { isActive: boolean }) =>
  `header__link${isActive ? ' header__link--active' : ''}`;

/** `menu`: the signed-in shell's menu button, shown on narrow screens. */
export function Header({ menu }: { menu?: ReactNode }) {
  const { user, signOut } = useAuth();
  const navigate = useNavigate();
  return (
    <header className="header">
      {menu}
      <Link to="/" className="header__logo" aria-label="Memtrail home">
        <LogoMark />
        <span>Memtrail</span>
      </Link>
      <nav className="header__nav" aria-label="Main">
        <NavLink to="/tutorial" className={navClass}>
          Tutorial
        </NavLink>
        <NavLink to="/pricing" className={navClass}>
          Pricing
        </NavLink>
      </nav>
      <div className="header__account">
        {user ? (
          <>
            <OrganizationSwitcher />
            <span className="header__email" title={user.email}>
              {user.email}
            </span>
            <button
              type="button"
              className="button button--ghost"
              onClick={() => void signOut().then(() => navigate('/'))}
            >
              Sign Out
            </button>
          </>
        ) : (
          <Link to="/auth" className="button button--primary">
            Sign In
          </Link>
        )}
      </div>
    </header>
  );
}
