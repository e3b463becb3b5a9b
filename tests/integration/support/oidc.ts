import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

/** Cookies across the gateway and the provider (same host, different ports share cookies). */
export class Browser {
  private readonly jar = new Map<string, string>();

  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.cookieHeader() },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const [name, ...value] = pair!.split('=');
      const expired = /expires=Thu, 01 Jan 1970/i.test(header) || /max-age=0/i.test(header);
      if (expired) this.jar.delete(name!.trim());
      else this.jar.set(name!.trim(), value.join('='));
    }
    return response;
  }

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  setCookie(name: string, value: string): void {
    this.jar.set(name, value);
  }

  private cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export interface OidcClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

/**
 * A real OpenID provider (the `oidc-provider` package) on loopback: PKCE required, accounts
 * looked up in `accounts` at each sign-in (so a test can change a user's groups between
 * sign-ins), ID tokens signed with the provider's own keys.
 */
export async function startOidcProvider(
  port: number,
  clients: OidcClient[],
  accounts: Record<string, Record<string, unknown>>,
): Promise<{ issuer: string; server: Server }> {
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({
      ...c,
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    cookies: { keys: ['memtrail-test-cookie-key'] },
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'groups'],
    },
    conformIdTokenClaims: false,
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({ sub, ...accounts[sub] }),
    }),
  } as ConstructorParameters<typeof Provider>[1]);
  const server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { issuer, server };
}

/**
 * Follows a sign-in from `start` (a gateway URL that redirects to the provider) through the
 * provider's login and consent pages; returns the provider's redirect back to the gateway.
 */
export async function authorize(
  browser: Browser,
  start: string,
  issuer: string,
  account: string,
  consent: 'allow' | 'deny' = 'allow',
): Promise<{ callback: string; state: string }> {
  let response = await browser.go(start);
  if (response.status !== 302) {
    throw new Error(`${start} answered ${response.status}: ${await response.text()}`);
  }
  let url = response.headers.get('location')!;
  const state = new URL(url).searchParams.get('state')!;
  if (new URL(url).searchParams.get('code_challenge_method') !== 'S256') {
    throw new Error('the gateway did not use PKCE S256');
  }
  const back = new URL(start).origin;
  for (let hop = 0; hop < 20; hop += 1) {
    if (url.startsWith(back)) return { callback: url, state };
    response = await browser.go(url);
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location')!, url).toString();
      continue;
    }
    const html = await response.text();
    const uid = new URL(url).pathname.split('/').pop()!;
    const form = (body: Record<string, string>) =>
      browser.go(`${issuer}/interaction/${uid}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body).toString(),
      });
    if (/name="prompt" value="login"/.test(html)) {
      response = await form({ prompt: 'login', login: account, password: 'any' });
    } else if (consent === 'deny') {
      response = await browser.go(`${issuer}/interaction/${uid}/abort`);
    } else {
      response = await form({ prompt: 'consent' });
    }
    url = new URL(response.headers.get('location')!, url).toString();
  }
  throw new Error('the provider never redirected back');
}
