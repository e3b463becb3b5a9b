/**
 * A local stand-in for GitHub Actions' OIDC issuer (token.actions.githubusercontent.com): a
 * discovery document, a JWKS of RS256 keys with key ids, and tokens carrying the claims GitHub
 * puts in them (repository, repository_id, event_name, ref, sha, …), signed as GitHub signs
 * them; and tokens signed with a key the JWKS does not list.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

export interface ActionsTokenClaims {
  repository: string;
  repository_id: string;
  event_name: string;
  ref: string;
  sha?: string;
  [claim: string]: unknown;
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const kid = randomUUID();
  return {
    kid,
    privateKey,
    jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
  };
}

export class ActionsOidcIssuer {
  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    private readonly key: SigningKey,
  ) {}

  static async start(): Promise<ActionsOidcIssuer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const self = new ActionsOidcIssuer(server, `http://127.0.0.1:${port}`, await newKey());
    server.on('request', (req: IncomingMessage, res: ServerResponse) => self.handle(req, res));
    return self;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/.well-known/openid-configuration') {
      return send(200, {
        issuer: this.issuer,
        jwks_uri: `${this.issuer}/.well-known/jwks`,
        subject_types_supported: ['public', 'pairwise'],
        response_types_supported: ['id_token'],
        claims_supported: ['sub', 'aud', 'exp', 'iat', 'iss', 'jti', 'nbf', 'ref', 'repository'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid'],
      });
    }
    if (path === '/.well-known/jwks') return send(200, { keys: [this.key.jwk] });
    return send(404, { message: 'Not Found' });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  /**
   * A token as GitHub Actions issues one to a job with `id-token: write`. `options` changes
   * what a genuine token would have: another issuer, lifetime, or a key the JWKS does not list.
   */
  async token(
    audience: string | string[],
    claims: ActionsTokenClaims,
    options: { issuer?: string; expiresInS?: number; foreignKey?: boolean } = {},
  ): Promise<string> {
    const key = options.foreignKey ? await newKey() : this.key;
    const now = Math.floor(Date.now() / 1000);
    const refType = claims.ref.startsWith('refs/tags/') ? 'tag' : 'branch';
    return new SignJWT({
      ref_type: refType,
      repository_owner: claims.repository.split('/')[0],
      repository_visibility: 'public',
      workflow: 'memory',
      workflow_ref: `${claims.repository}/.github/workflows/memory.yml@${claims.ref}`,
      actor: 'octocat',
      run_id: '4242',
      run_attempt: '1',
      runner_environment: 'github-hosted',
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setIssuer(options.issuer ?? this.issuer)
      .setAudience(audience)
      .setSubject(`repo:${claims.repository}:ref:${claims.ref}`)
      .setJti(randomUUID())
      .setNotBefore(now - 5)
      .setIssuedAt(now - 5)
      .setExpirationTime(now + (options.expiresInS ?? 300))
      .sign(key.privateKey);
  }
}
