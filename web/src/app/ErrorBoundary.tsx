import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
  /** Screen shown instead of the children; gets a function that renders them again. */
  fallback?: (reset: () => void, error: Error) => ReactNode;
  /** Changing this (e.g. the path) clears a caught error, so navigating away recovers. */
  resetKey?: unknown;
}

interface State {
  error: Error | null;
  resetKey: unknown;
}

/**
 * Catches render errors, including failed lazy chunks. Without a fallback it shows the generic
 * boundary of spec §2. React still needs a class component for this.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Render error', error, info.componentStack);
  }

  private readonly reset = () => this.setState({ error: null });

  override render() {
    if (!this.state.error) return this.props.children;
    if (this.props.fallback) return this.props.fallback(this.reset, this.state.error);
    return (
      <ErrorScreen
        title="Something went wrong"
        text="An unexpected error occurred while rendering this component. Please try refreshing the page."
        actions={[
          { label: 'Refresh Page', onClick: () => window.location.reload() },
          { label: 'Try Again', onClick: this.reset, secondary: true },
        ]}
      />
    );
  }
}

export interface ErrorAction {
  label: string;
  onClick(): void;
  secondary?: boolean;
}

export function ErrorScreen({
  title,
  text,
  actions,
}: {
  title: string;
  text: string;
  actions: ErrorAction[];
}) {
  return (
    <div className="error-screen" role="alert">
      <div className="error-screen__icon" aria-hidden="true">
        !
      </div>
      <h1>{title}</h1>
      <p>{text}</p>
      <div className="error-screen__actions">
        {actions.map((action) => (
          <button
            key={action.label}
            type="button"
            className={`button ${action.secondary ? 'button--ghost' : 'button--primary'}`}
            onClick={action.onClick}
          >
            {action.label}
          </button>
        ))}
      </div>
    </div>
  );
}
