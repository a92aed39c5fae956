import { Component, type ReactNode } from 'react';

/**
 * Around the lazily loaded screens: a screen whose code cannot be fetched (the connection dropped, or a new version
 * of the dashboard replaced the files this tab knows) says so with a way out instead of leaving a blank page.
 * Another address clears it.
 */
export class ScreenBoundary extends Component<{ path: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidUpdate(previous: { path: string }) {
    if (previous.path !== this.props.path && this.state.failed) this.setState({ failed: false });
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <>
        <h1>This page could not be opened</h1>
        <div className="alert alert-error" role="alert">
          <p>The dashboard could not load this page. Check the connection, then reload; a newer version of the dashboard may be waiting.</p>
        </div>
        <button type="button" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      </>
    );
  }
}
