// The authorization server of the OAuth tests: oidc-provider issuing JWT
// access tokens (RFC 9068) for resource indicators (RFC 8707) through the
// client credentials grant and the authorization code grant with PKCE (public
// client `mcp-app`, the built-in login and consent pages), on a free loopback
// port. Tokens for a resource
// whose path starts with /opaque are opaque, for introspection (RFC 7662) by
// the client `mcp-resource`.
//
//   node provider.mjs NODE_MODULES_DIR
//
// Prints one JSON line, {"issuer": "http://127.0.0.1:PORT"}, once it listens.
// Besides the provider's own endpoints it serves two test hooks:
//   POST /test/rotate  adds a new signing key (first, so it signs from now on)
// It also accepts RFC 8693 token exchange (grant
// urn:ietf:params:oauth:grant-type:token-exchange, client `mcp-resource`): a
// valid access token of this issuer is traded for one with the requested
// `audience`, the same subject and an `act` claim naming the client.
//   POST /test/sign    {"claims": {...}, "foreign": bool} signs claims with the
//                      current key (or, when foreign, with a key of the same
//                      kid that the key set does not hold): tokens no grant
//                      would issue (expired, another issuer, a bad signature).

import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const modules = process.argv[2];
if (!modules) {
  console.error('usage: node provider.mjs NODE_MODULES_DIR');
  process.exit(2);
}
const load = (path) => import(pathToFileURL(join(modules, path)).href);
const { default: Provider } = await load('oidc-provider/lib/index.js');
const jose = await load('jose/dist/webapi/index.js');

const SCOPES = ['mcp:tools', 'tools:admin'];
const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';

function newKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

let keys = [newKey()];
let provider;

function makeProvider(issuer) {
  const client = (id, method, grants = ['client_credentials']) => ({
    client_id: id,
    client_secret: `${id}-secret`,
    grant_types: grants,
    redirect_uris: [],
    response_types: [],
    scope: SCOPES.join(' '),
    token_endpoint_auth_method: method,
  });
  const made = new Provider(issuer, {
    clients: [
      client('mcp-client', 'client_secret_basic'),
      client('mcp-post-client', 'client_secret_post'),
      client('mcp-resource', 'client_secret_basic', ['client_credentials', EXCHANGE]),
      {
        client_id: 'mcp-app',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: ['http://127.0.0.1:1/callback'],
        token_endpoint_auth_method: 'none',
        scope: SCOPES.join(' '),
      },
    ],
    scopes: SCOPES,
    jwks: { keys },
    features: {
      // The built-in login and consent pages (any login), which the
      // authorization code test fills in.
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => ({
          scope: SCOPES.join(' '),
          audience: resource,
          accessTokenTTL: 300,
          accessTokenFormat: new URL(resource).pathname.startsWith('/opaque') ? 'opaque' : 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  made.on('server_error', (_ctx, error) => console.error('provider error:', error));
  made.registerGrantType(
    EXCHANGE,
    exchange,
    ['subject_token', 'subject_token_type', 'requested_token_type', 'audience', 'scope'],
    ['audience'],
  );
  return made;
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}

function reply(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function sign(claims, foreign) {
  const current = keys[0];
  const jwk = foreign ? { ...newKey(), kid: current.kid } : current;
  const key = await jose.importJWK(jwk, 'RS256');
  return new jose.SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: current.kid, typ: 'at+jwt' })
    .sign(key);
}

async function exchange(ctx) {
  const { subject_token: subjectToken, subject_token_type: subjectType, audience, scope } = ctx.oidc.params;
  const fail = (description) => {
    ctx.status = 400;
    ctx.body = { error: 'invalid_grant', error_description: description };
  };
  if (subjectType !== ACCESS_TOKEN) return fail('subject_token_type must be an access token');
  if (!audience) return fail('audience is required');
  const publicKeys = keys.map(({ kty, n, e, kid, alg, use }) => ({ kty, n, e, kid, alg, use }));
  let subject;
  try {
    ({ payload: subject } = await jose.jwtVerify(subjectToken, jose.createLocalJWKSet({ keys: publicKeys }), {
      issuer: provider.issuer,
    }));
  } catch (error) {
    return fail(`subject_token: ${error.message}`);
  }
  const now = Math.floor(Date.now() / 1000);
  const token = await sign({
    iss: provider.issuer,
    sub: subject.sub,
    aud: audience,
    client_id: subject.client_id,
    scope,
    act: { sub: ctx.oidc.client.clientId },
    iat: now,
    exp: now + 300,
  }, false);
  ctx.body = { access_token: token, issued_token_type: ACCESS_TOKEN, token_type: 'Bearer', expires_in: 300 };
}

const server = createServer(async (req, res) => {
  try {
    if (req.method === 'POST' && req.url === '/test/rotate') {
      keys = [newKey(), ...keys];
      provider = makeProvider(provider.issuer);
      return reply(res, 200, { kid: keys[0].kid });
    }
    if (req.method === 'POST' && req.url === '/test/sign') {
      const { claims, foreign } = await readJson(req);
      return reply(res, 200, { token: await sign(claims, Boolean(foreign)) });
    }
    return provider.callback()(req, res);
  } catch (error) {
    return reply(res, 500, { error: String(error) });
  }
});

server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  provider = makeProvider(issuer);
  console.log(JSON.stringify({ issuer }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
