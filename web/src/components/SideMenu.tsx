import { useEffect, useRef } from 'react';
import { NavLink, useLocation } from 'react-router';
import { useAuth } from '../lib/auth/AuthProvider.tsx';
import { useProjects, useTargets } from '../lib/data.ts';
import { useReadOnlyProject } from '../lib/readOnlyProject.tsx';
import { focusables } from '../lib/focus.ts';
import { paths, projectRouteOf } from '../lib/routes.ts';

const itemClass = ({ isActive }: { isActive: boolean }) =>
  `side-menu__item${isActive ? ' side-menu__item--active' : ''}`;

const MENU_ID = 'side-menu';

/** Opens the side menu as a drawer; only shown where the screen is too narrow for the menu. */
export function MenuButton({ open, onToggle }: { open: boolean; onToggle(): void }) {
  return (
    <button
      type="button"
      className="menu-button"
      aria-expanded={open}
      aria-controls={MENU_ID}
      onClick={onToggle}
    >
      <span className="menu-button__bars" aria-hidden="true" />
      Menu
    </button>
  );
}

/**
 * Projects, then within a project the project and target names and the target pages (spec §2).
 * Target pages need a target: without one in the route the project's first target is used. A
 * public project shown read-only has no Region Config or Settings (and signed out, no Projects).
 * On narrow screens it is a drawer: open, it takes the focus; Escape or a link closes it.
 */
export function SideMenu({ open, onClose }: { open: boolean; onClose(): void }) {
  const { pathname } = useLocation();
  const { user } = useAuth();
  const { projectId, targetName } = projectRouteOf(pathname);
  // A public project shown read-only: its name is known, its settings are not offered.
  const readOnly = useReadOnlyProject();
  const { data: projects } = useProjects(Boolean(projectId) && !readOnly);
  const { data: targets } = useTargets(projectId);
  const project = readOnly ?? projects?.find((candidate) => String(candidate.id) === projectId);
  const target = targetName ?? targets?.[0]?.name;
  const nav = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!open) return;
    focusables(nav.current!)[0]?.focus();
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onClose]);

  return (
    <>
      {open ? <div className="side-menu__scrim" onClick={onClose} aria-hidden="true" /> : null}
      <nav
        ref={nav}
        id={MENU_ID}
        className={`side-menu${open ? ' side-menu--open' : ''}`}
        aria-label="Project navigation"
        onClick={(event) => (event.target as HTMLElement).closest('a') && onClose()}
      >
        {user ? (
          <NavLink to="/" end className={itemClass}>
            <span className="side-menu__icon" aria-hidden="true">
              ▦
            </span>
            Projects
          </NavLink>
        ) : null}
        {projectId ? (
          <div className="side-menu__project">
            <div className="side-menu__context">
              <span className="side-menu__label">Project</span>
              <span className="side-menu__name" title={project?.name}>
                {project?.name ?? projectId}
              </span>
              <span className="side-menu__label">Target</span>
              <span className="side-menu__name side-menu__name--mono" title={target}>
                {target ?? '—'}
              </span>
            </div>
            {target ? (
              <>
                <NavLink to={paths.dashboard(projectId, target)} end className={itemClass}>
                  Dashboard
                </NavLink>
                <NavLink to={paths.compare(projectId, target)} className={itemClass}>
                  Compare Builds
                </NavLink>
                <NavLink to={paths.symbols(projectId, target)} className={itemClass}>
                  Symbol Analysis
                </NavLink>
                {readOnly ? null : (
                  <NavLink to={paths.regionConfig(projectId, target)} className={itemClass}>
                    Region Config
                  </NavLink>
                )}
              </>
            ) : null}
            {readOnly ? (
              <span className="side-menu__label">Public project · read-only</span>
            ) : (
              <NavLink to={paths.settings(projectId)} className={itemClass}>
                Settings
              </NavLink>
            )}
          </div>
        ) : null}
      </nav>
    </>
  );
}
