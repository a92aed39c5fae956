import { lazy, Suspense, useEffect, useState } from 'react';
import { Provider } from 'urql';
import { client, mutate, toApiError } from './api/client';
import { ErrorMessage, Loading } from './components/ui';
import { ScreenBoundary } from './components/screenBoundary';
import { ToastProvider } from './components/toasts';
import { SignOutDocument, type SessionFieldsFragment } from './generated/graphql';
import { Link, match, navigate, useLocation } from './lib/router';
import { ProductEditorPage } from './screens/ProductEditor';
import { ProductListPage } from './screens/ProductList';
import { safeReturnTo, SignInPage } from './screens/SignIn';
import { SessionProvider, useSession, useWorkspace, WorkspaceProvider } from './session';

/*
 * The product list and editor are in the first bundle (most visits start there); every other screen is a chunk of
 * its own, loaded when first opened. A new screen: `const XPage = lazy(() => import('./screens/X').then((m) => ({ default: m.XPage })));`
 */
const ApiKeysPage = lazy(() => import('./screens/ApiKeys').then((m) => ({ default: m.ApiKeysPage })));
const CategoriesPage = lazy(() => import('./screens/Categories').then((m) => ({ default: m.CategoriesPage })));
const HistoryPage = lazy(() => import('./screens/History').then((m) => ({ default: m.HistoryPage })));
const TeamPage = lazy(() => import('./screens/Team').then((m) => ({ default: m.TeamPage })));
const WebhooksPage = lazy(() => import('./screens/Webhooks').then((m) => ({ default: m.WebhooksPage })));
const WebhookDetailPage = lazy(() => import('./screens/Webhooks').then((m) => ({ default: m.WebhookDetailPage })));
const LanguagesPage = lazy(() => import('./screens/Languages').then((m) => ({ default: m.LanguagesPage })));
const TranslationsPage = lazy(() => import('./screens/Translations').then((m) => ({ default: m.TranslationsPage })));
const ProductTranslationPage = lazy(() => import('./screens/translations/ProductTranslation').then((m) => ({ default: m.ProductTranslationPage })));
const CategoryTranslationPage = lazy(() => import('./screens/translations/CategoryTranslation').then((m) => ({ default: m.CategoryTranslationPage })));
const AttributeTranslationPage = lazy(() => import('./screens/translations/AttributeTranslation').then((m) => ({ default: m.AttributeTranslationPage })));
const AttributesPage = lazy(() => import('./screens/Attributes').then((m) => ({ default: m.AttributesPage })));
const AttributeEditorPage = lazy(() => import('./screens/Attributes').then((m) => ({ default: m.AttributeEditorPage })));
const ProductTypesPage = lazy(() => import('./screens/ProductTypes').then((m) => ({ default: m.ProductTypesPage })));
const ProductTypeEditorPage = lazy(() => import('./screens/ProductTypes').then((m) => ({ default: m.ProductTypeEditorPage })));
const ImportExportPage = lazy(() => import('./screens/ImportExport').then((m) => ({ default: m.ImportExportPage })));
const OAuthAppsPage = lazy(() => import('./screens/OAuthApps').then((m) => ({ default: m.OAuthAppsPage })));
const InvitePage = lazy(() => import('./screens/Invite').then((m) => ({ default: m.InvitePage })));
const CollectionsScreen = lazy(() => import('./screens/Collections'));

export function App() {
  return (
    <Provider value={client}>
      <SessionProvider>
        <ToastProvider>
          <Root />
        </ToastProvider>
      </SessionProvider>
    </Provider>
  );
}

function Root() {
  const { state, reload } = useSession();
  const { path } = useLocation();
  const invitation = match('invite/:token', path);
  // An invitation link opens its page whether or not someone is signed in (outside the signed-in shell).
  if (invitation && (state.status === 'signedIn' || state.status === 'signedOut')) {
    return (
      
        <InvitePage token={invitation.token!} signedInAs={state.status === 'signedIn' ? state.session.user : null} />
      
    );
  }
  if (state.status === 'loading') {
    return (
      <main id="main" className="centered-page">
        <h1 className="visually-hidden">Store dashboard</h1>
        <Loading label="Loading the dashboard…" />
      </main>
    );
  }
  if (state.status === 'error') {
    return (
      <main id="main" className="centered-page">
        <h1>Store dashboard</h1>
        <ErrorMessage error={state.error} title="The dashboard could not start." />
        <button type="button" onClick={() => void reload()}>
          Try again
        </button>
      </main>
    );
  }
  if (state.status === 'signedOut') return <SignInPage notice={state.notice} />;
  return <SignedIn session={state.session} />;
}

function SignedIn({ session }: { session: SessionFieldsFragment }) {
  const { path } = useLocation();
  const returnTo = path === 'sign-in' ? safeReturnTo() : null;
  useEffect(() => {
    if (path !== 'sign-in') return;
    if (returnTo) window.location.assign(returnTo);
    else navigate('products', { replace: true });
  }, [path, returnTo]);
  if (returnTo) {
    return (
      <main id="main" className="centered-page">
        <h1 className="visually-hidden">Store dashboard</h1>
        <Loading label="Continuing…" />
      </main>
    );
  }
  return (
    <WorkspaceProvider session={session}>
      <Shell />
    </WorkspaceProvider>
  );
}

interface NavItem {
  to: string;
  label: string;
  permission?: string;
  active: (path: string) => boolean;
}

const NAV: NavItem[] = [
  { to: 'products', label: 'Products', permission: 'manage_products', active: (p) => p === '' || p.startsWith('products') },
  { to: 'categories', label: 'Categories', permission: 'manage_products', active: (p) => p.startsWith('categories') },
  { to: 'translations', label: 'Translations', permission: 'manage_products', active: (p) => p.startsWith('translations') },
  { to: 'languages', label: 'Languages and currencies', permission: 'manage_products', active: (p) => p.startsWith('languages') },
  { to: 'attributes', label: 'Attributes', permission: 'manage_products', active: (p) => p.startsWith('attributes') },
  { to: 'product-types', label: 'Product types', permission: 'manage_products', active: (p) => p.startsWith('product-types') },
  { to: 'collections', label: 'Collections', permission: 'manage_products', active: (p) => p.startsWith('collections') },
  { to: 'activity', label: 'Activity', permission: 'view_changes', active: (p) => p.startsWith('activity') },
  { to: 'api-keys', label: 'API keys', permission: 'manage_api_keys', active: (p) => p.startsWith('api-keys') },
  { to: 'webhooks', label: 'Webhooks', permission: 'manage_webhooks', active: (p) => p.startsWith('webhooks') },
  { to: 'import-export', label: 'Import and export', permission: 'manage_products', active: (p) => p.startsWith('import-export') },
  { to: 'oauth-apps', label: 'OAuth apps', active: (p) => p.startsWith('oauth-apps') },
  { to: 'team', label: 'Team', active: (p) => p.startsWith('team') },
];

function Shell() {
  const { store, storeId, mode, setMode, setStoreId, session, can } = useWorkspace();
  const { signedOut } = useSession();
  const { path } = useLocation();
  const [signOutError, setSignOutError] = useState<ReturnType<typeof toApiError> | null>(null);
  const memberships = session.user.memberships;

  const signOut = async () => {
    try {
      await mutate(SignOutDocument, {});
      signedOut('You have signed out.');
      navigate('', { replace: true });
    } catch (error) {
      setSignOutError(toApiError(error));
    }
  };

  return (
    <div className={`app mode-${mode}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        {mode === 'test' ? (
          <p className="test-banner">
            <strong>Test mode</strong> — you are working on the test data of {store.name}. Nothing here touches the live shop.
          </p>
        ) : null}
        <div className="topbar">
        <Link to="products" className="brand">
          Store dashboard
        </Link>
        <div className="topbar-controls">
          <div className="control">
            <label htmlFor="store-switcher">Store</label>
            <select id="store-switcher" value={storeId} onChange={(e) => setStoreId(e.target.value)}>
              {memberships.map((m) => (
                <option key={m.store.id} value={m.store.id}>
                  {m.store.name}
                </option>
              ))}
            </select>
          </div>
          <div className="control mode-switch">
            <button
              type="button"
              role="switch"
              aria-checked={mode === 'test'}
              className={`switch${mode === 'test' ? ' switch-on' : ''}`}
              onClick={() => setMode(mode === 'test' ? 'live' : 'test')}
            >
              <span className="switch-track" aria-hidden="true">
                <span className="switch-thumb" />
              </span>
              Test mode
            </button>
          </div>
          <span className="user" title={session.user.email}>
            {session.user.name}
          </span>
          <button type="button" className="button-secondary" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
        </div>
      </header>
      {signOutError ? <ErrorMessage error={signOutError} title="Signing out failed." /> : null}
      <div className="layout">
        <nav aria-label="Main" className="sidenav">
          <ul>
            {NAV.filter((item) => !item.permission || can(item.permission)).map((item) => (
              <li key={item.to}>
                <Link to={item.to} aria-current={item.active(path) ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1} className="content" key={`${storeId}:${mode}`}>
          <ScreenBoundary path={path}>
            <Suspense fallback={<Loading label="Loading the page…" />}>
              <Routes path={path} />
            </Suspense>
          </ScreenBoundary>
        </main>
      </div>
    </div>
  );
}

function Routes({ path }: { path: string }) {
  const { can } = useWorkspace();
  let params: Record<string, string> | null;
  if (path === '' || path === 'products') return can('manage_products') ? <ProductListPage /> : <Landing />;
  if (path === 'products/new') return <ProductEditorPage productId={null} />;
  if ((params = match('products/:id/history', path))) return <HistoryPage productId={params.id!} />;
  if ((params = match('products/:id/translate', path))) return <ProductTranslationPage productId={params.id!} key={params.id} />;
  if ((params = match('categories/:id/translate', path))) return <CategoryTranslationPage categoryId={params.id!} key={params.id} />;
  if ((params = match('attributes/:id/translate', path))) return <AttributeTranslationPage attributeId={params.id!} key={params.id} />;
  if (path === 'translations') return <TranslationsPage />;
  if (path === 'languages') return <LanguagesPage />;
  if ((params = match('products/:id', path))) return <ProductEditorPage productId={params.id!} key={params.id} />;
  if (path === 'categories') return <CategoriesPage />;
  if (path === 'attributes') return <AttributesPage />;
  if (path === 'attributes/new') return <AttributeEditorPage attributeId={null} />;
  if ((params = match('attributes/:id', path))) return <AttributeEditorPage attributeId={params.id!} key={params.id} />;
  if (path === 'product-types') return <ProductTypesPage />;
  if (path === 'product-types/new') return <ProductTypeEditorPage productTypeId={null} />;
  if ((params = match('product-types/:id', path))) return <ProductTypeEditorPage productTypeId={params.id!} key={params.id} />;
  if (path === 'collections' || path.startsWith('collections/')) return <CollectionsScreen path={path} />;
  if (path === 'activity') return <HistoryPage productId={null} />;
  if (path === 'api-keys') return <ApiKeysPage />;
  if (path === 'webhooks') return <WebhooksPage />;
  if ((params = match('webhooks/:id', path))) return <WebhookDetailPage endpointId={params.id!} key={params.id} />;
  if (path === 'team') return <TeamPage />;
  if (path === 'import-export') return <ImportExportPage />;
  if (path === 'oauth-apps') return <OAuthAppsPage />;
  return <NotFound />;
}

function Landing() {
  const { store } = useWorkspace();
  return (
    <>
      <h1>{store.name}</h1>
      <p>Choose a section in the menu.</p>
    </>
  );
}

function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is no dashboard page at this address. <Link to="products">Go to the products</Link>.
      </p>
    </>
  );
}
