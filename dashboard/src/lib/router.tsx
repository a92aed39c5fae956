import { type AnchorHTMLAttributes, type MouseEvent, useEffect, useMemo, useSyncExternalStore } from 'react';

/**
 * A small History API router for the pages under /dashboard/ (the service answers every path below it
 * with index.html). Paths inside the app are written without the base: "products/42".
 */
export const BASE = import.meta.env.BASE_URL.endsWith('/') ? import.meta.env.BASE_URL : `${import.meta.env.BASE_URL}/`;

const CHANGE = 'dashboard:navigate';

function subscribe(callback: () => void): () => void {
  window.addEventListener('popstate', callback);
  window.addEventListener(CHANGE, callback);
  return () => {
    window.removeEventListener('popstate', callback);
    window.removeEventListener(CHANGE, callback);
  };
}

const snapshot = () => window.location.pathname + window.location.search;

export function href(to: string): string {
  return BASE + to.replace(/^\//, '');
}

/** The current location: path (no base, no leading or trailing slash) and its query parameters. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const current = useSyncExternalStore(subscribe, snapshot);
  return useMemo(() => {
    const url = new URL(current, window.location.origin);
    // "/dashboard" (no trailing slash) is the app's home too: it is the address people type.
    const pathname = url.pathname === BASE.slice(0, -1) ? BASE : url.pathname;
    let path = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname.replace(/^\//, '');
    path = path.replace(/\/+$/, '');
    return { path: decodeURI(path), search: url.searchParams };
  }, [current]);
}

/** Parts of the page with unsaved edits (a page may hold several, each saved on its own): asked once before the app leaves. */
const leaveGuards = new Set<() => boolean>();

const UNSAVED = 'You have unsaved changes. Leave this page and lose them?';

/**
 * Warns before leaving a page while `active` (unsaved edits): an in-app link or navigate() asks first, and the
 * browser asks before a reload, a typed address or closing the tab.
 */
export function useLeaveGuard(active: boolean): void {
  useEffect(() => {
    if (!active) return undefined;
    const guard = () => window.confirm(UNSAVED);
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    leaveGuards.add(guard);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      leaveGuards.delete(guard);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [active]);
}

/** `force`: leave without asking (the page itself moves on after saving or deleting). */
export function navigate(to: string, options: { replace?: boolean; force?: boolean } = {}): void {
  const target = href(to);
  if (target === snapshot()) return;
  if (!options.force && leaveGuards.size > 0 && !window.confirm(UNSAVED)) return;
  if (options.force) leaveGuards.clear();
  if (options.replace) window.history.replaceState(null, '', target);
  else window.history.pushState(null, '', target);
  window.dispatchEvent(new Event(CHANGE));
  // A new page starts at its top, as a page load would.
  if (!options.replace) window.scrollTo(0, 0);
}

/** Matches "products/:id" against a path; returns the parameters or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const parts = pattern.split('/').filter(Boolean);
  const actual = path.split('/').filter(Boolean);
  if (parts.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = actual[i]!;
    else if (part !== actual[i]) return null;
  }
  return params;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

export function Link({ to, onClick, ...rest }: LinkProps) {
  const onLinkClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={href(to)} onClick={onLinkClick} {...rest} />;
}
