import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/**
 * Last line of defence for render errors, including failed lazy chunks. Texts are the generic
 * boundary of spec §2. React still needs a class component for this.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Render error', error, info.componentStack);
  }

  private readonly reset = () => this.setState({ error: null });

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="error-screen" role="alert">
        <h1>Something went wrong</h1>
        <p>
          An unexpected error occurred while rendering this component. Please try refreshing the
          page.
        </p>
        <div className="error-screen__actions">
          <button type="button" onClick={() => window.location.reload()}>
            Refresh Page
          </button>
          <button type="button" className="button--secondary" onClick={this.reset}>
            Try Again
          </button>
        </div>
      </div>
    );
  }
}
