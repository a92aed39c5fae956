import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { getMode, type Mode, mutate, query, setCsrfToken, setMode as storeMode, setUnauthenticatedHandler, toApiError, type ApiError } from './api/client';
import { DashboardSessionDocument, SignOutDocument, type SessionFieldsFragment } from './generated/graphql';
import { readStored, writeStored } from './lib/storage';

/**
 * The signed-in state: the dashboard session (from the HttpOnly cookie, read through dashboardSession),
 * the store being worked on and the catalog mode.
 */

export type Membership = SessionFieldsFragment['user']['memberships'][number];
export type Store = Membership['store'];

export type SessionState =
  | { status: 'loading' }
  | { status: 'error'; error: ApiError }
  | { status: 'signedOut'; notice?: string }
  | { status: 'signedIn'; session: SessionFieldsFragment };

const STORE_KEY = 'dashboard.storeId';

interface SessionContextValue {
  state: SessionState;
  /** Re-reads the session (after sign-in, or when categories changed). */
  reload(): Promise<void>;
  signedIn(session: SessionFieldsFragment): void;
  signedOut(notice?: string): void;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });

  const signedIn = useCallback((session: SessionFieldsFragment) => {
    setCsrfToken(session.csrfToken);
    setState({ status: 'signedIn', session });
  }, []);
  const signedOut = useCallback((notice?: string) => {
    setCsrfToken(null);
    setState({ status: 'signedOut', notice });
  }, []);

  const reload = useCallback(async () => {
    try {
      const data = await query(DashboardSessionDocument, {});
      if (data.dashboardSession) signedIn(data.dashboardSession);
      else signedOut();
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.code === 'unauthenticated' || apiError.code === 'invalid_token') signedOut();
      else setState((current) => (current.status === 'signedIn' ? current : { status: 'error', error: apiError }));
    }
  }, [signedIn, signedOut]);

  useEffect(() => {
    setUnauthenticatedHandler(() => {
      setCsrfToken(null);
      setState((current) => (current.status === 'signedIn' ? { status: 'signedOut', notice: 'Your session has ended. Please sign in again.' } : current));
    });
    void reload();
  }, [reload]);

  const value = useMemo(() => ({ state, reload, signedIn, signedOut }), [state, reload, signedIn, signedOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

interface WorkspaceValue {
  session: SessionFieldsFragment;
  membership: Membership;
  store: Store;
  storeId: string;
  mode: Mode;
  setStoreId(id: string): void;
  setMode(mode: Mode): void;
  /** Whether the user holds a permission in the current store (owners hold all). */
  can(permission: string): boolean;
  reloadSession(): Promise<void>;
}

const WorkspaceContext = createContext<WorkspaceValue | null>(null);

export function WorkspaceProvider({ session, children }: { session: SessionFieldsFragment; children: ReactNode }) {
  const { reload } = useSession();
  const memberships = session.user.memberships;
  const [storeId, setStoreIdState] = useState<string>(() => {
    const stored = readStored(STORE_KEY);
    return memberships.find((m) => m.store.id === stored)?.store.id ?? memberships[0]?.store.id ?? '';
  });
  const [mode, setModeState] = useState<Mode>(getMode);

  const membership = memberships.find((m) => m.store.id === storeId) ?? memberships[0];
  const setStoreId = useCallback((id: string) => {
    writeStored(STORE_KEY, id);
    setStoreIdState(id);
  }, []);
  const setMode = useCallback((next: Mode) => {
    storeMode(next);
    setModeState(next);
  }, []);

  const value = useMemo<WorkspaceValue | null>(() => {
    if (!membership) return null;
    const permissions = new Set(membership.permissions);
    return {
      session,
      membership,
      store: membership.store,
      storeId: membership.store.id,
      mode,
      setStoreId,
      setMode,
      can: (permission: string) => membership.role === 'owner' || permissions.has(permission),
      reloadSession: reload,
    };
  }, [session, membership, mode, setStoreId, setMode, reload]);

  if (!value) return <NoStores />;
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

function NoStores() {
  const { signedOut } = useSession();
  const signOut = async () => {
    try {
      await mutate(SignOutDocument, {});
    } finally {
      signedOut('You have signed out.');
    }
  };
  return (
    <main id="main" className="centered-page">
      <h1>No stores yet</h1>
      <p>Your account is not a member of any store. Ask a store owner to add you, then sign in again.</p>
      <button type="button" className="button-secondary" onClick={() => void signOut()}>
        Sign out
      </button>
    </main>
  );
}

export function useWorkspace(): WorkspaceValue {
  const value = useContext(WorkspaceContext);
  if (!value) throw new Error('useWorkspace outside WorkspaceProvider');
  return value;
}
