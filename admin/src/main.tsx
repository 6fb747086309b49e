// The administration app: sign-in, the navigation the role allows, and the screen the fragment names.
// First, before Preact and the screens: it sends the request for the first screen's data.
import { firstPageOrAfter, isStaff } from './first-page';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, whenUnauthenticated } from './api';
import { href, useRoute } from './router';
import { Accounts } from './screens/accounts';
import { Catalogue } from './screens/catalogue';
import { Customers } from './screens/customers';
import { Exports } from './screens/exports';
import { Home } from './screens/home';
import { Login } from './screens/login';
import { OrderPage } from './screens/order';
import { Orders } from './screens/orders';
import { Queue } from './screens/queue';
import { Returns } from './screens/returns';
import { Stock } from './screens/stock';
import { WebhookPage } from './screens/webhook';
import { Webhooks } from './screens/webhooks';
import { forgetToken, keepToken, principalOf, storedToken, type Principal } from './session';

// The first the token may use is the screen after sign-in. `staff`: the store's figures and lists
// of every order, which a customer's own token may not read whatever its scopes.
const SCREENS = [
  { path: 'home', label: 'Home', scope: 'orders:read', staff: true },
  { path: 'orders', label: 'Orders', scope: 'orders:read' },
  { path: 'queue', label: 'Fulfilment', scope: 'shipments:write' },
  { path: 'returns', label: 'Returns', scope: 'orders:read', staff: true },
  { path: 'catalogue', label: 'Catalogue', scope: 'catalogue:read' },
  { path: 'stock', label: 'Stock', scope: 'stock:read' },
  { path: 'customers', label: 'Customers', scope: 'customers:read' },
  { path: 'exports', label: 'Exports', scope: 'exports:write' },
  { path: 'accounts', label: 'Accounts', scope: 'accounts:admin' },
  { path: 'webhooks', label: 'Webhooks', scope: 'webhooks:admin' },
] as const;

function signedIn(): Principal | null {
  const token = storedToken();
  const principal = token ? principalOf(token) : null;
  if (principal && principal.exp * 1000 > Date.now()) return principal;
  forgetToken();
  return null;
}

/** The signed-in person as the header names them: their account's email and role (GET /accounts/me); null until known, or for a token no account was issued. */
function useAccount(principal: Principal | null): { readonly email: string; readonly role: string } | null {
  const [account, setAccount] = useState<{ email: string; role: string } | null>(null);
  useEffect(() => {
    setAccount(null);
    if (!principal) return;
    let current = true;
    void api.GET('/accounts/me').then(({ data }) => {
      if (current && data) setAccount({ email: data.email, role: data.role });
    });
    return () => {
      current = false;
    };
  }, [principal]);
  return account;
}

function App() {
  const [principal, setPrincipal] = useState(signedIn);
  const [expired, setExpired] = useState(false);
  const account = useAccount(principal);
  const route = useRoute();
  useEffect(
    () =>
      whenUnauthenticated(() => {
        forgetToken();
        setExpired(true);
        setPrincipal(null);
      }),
    [],
  );

  if (!principal) {
    return (
      <Login
        expired={expired}
        onSignedIn={(token) => {
          keepToken(token);
          setExpired(false);
          setPrincipal(principalOf(token));
        }}
      />
    );
  }
  const can = (scope: string) => principal.scopes.has(scope);
  const allowed = SCREENS.filter((screen) => can(screen.scope) && (!('staff' in screen) || isStaff(principal)));
  const [first = '', ...rest] = route.parts;
  const current = allowed.find((screen) => screen.path === first) ?? allowed[0];

  let screen;
  switch (current?.path) {
    case 'home':
      screen = <Home can={can} />;
      break;
    case 'orders':
      screen = rest[0] ? <OrderPage id={rest[0]} can={can} /> : <Orders query={route.query} />;
      break;
    case 'queue':
      screen = <Queue />;
      break;
    case 'returns':
      screen = <Returns query={route.query} />;
      break;
    case 'catalogue':
      screen = <Catalogue can={can} />;
      break;
    case 'stock':
      screen = <Stock can={can} query={route.query} />;
      break;
    case 'customers':
      screen = <Customers can={can} />;
      break;
    case 'exports':
      screen = <Exports />;
      break;
    case 'accounts':
      screen = <Accounts />;
      break;
    case 'webhooks':
      screen = rest[0] ? <WebhookPage id={rest[0]} query={route.query} /> : <Webhooks />;
      break;
    default:
      screen = <p>This account may not use any screen of the administration.</p>;
  }
  return (
    <>
      <a class="skip" href="#main" onClick={(event) => (event.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Order service</span>
        <nav aria-label="Screens">
          <ul>
            {allowed.map((item) => (
              <li key={item.path}>
                <a href={href(item.path)} aria-current={item === current ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">{account ? `${account.email} (${account.role})` : principal.sub}</span>
        <button
          type="button"
          class="secondary"
          onClick={() => {
            forgetToken();
            setPrincipal(null);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1} key={route.key}>
        {screen}
      </main>
    </>
  );
}

// A page that comes within 300 ms is drawn in the app's first frame; a slower one follows it.
await firstPageOrAfter(300);
render(<App />, document.getElementById('app')!);
