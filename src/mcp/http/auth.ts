/**
 * Who may call: the shared bearer token (SVC_HTTP_TOKEN), or with sign-in (SVC_OAUTH_ISSUER, or
 * SVC_SIGN_IN=own-key) the person an access token names, carried to the MCP server as the request's
 * auth info (the SDK passes it through to the server built for the request); with own-key sign-in
 * it carries the person's own key and budget too.
 */
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Config } from '../../config/index.js';
import { personOf } from '../../guard/accounts.js';
import type { HttpRefusal } from '../../http/refusal.js';
import type { OwnKey } from '../../sign-in/index.js';
import { type AccessRules, checkToken } from './access.js';
import type { SignIn } from './sign-in.js';

/** A refusal; or who the caller is (with sign-in); or undefined: the caller may go on, unnamed. */
export type Authorized = HttpRefusal | { person: string } | undefined;

export function isRefusal(checked: Authorized): checked is HttpRefusal {
  return checked !== undefined && 'status' in checked;
}

/** The sign-in a configuration asks for, loaded only then: the desktop bundle leaves its token library out. */
export async function signInFor(config: Config): Promise<SignIn | undefined> {
  if (config.oauthIssuer === undefined || config.oauthResource === undefined) return undefined;
  const { SignIn } = await import('./sign-in.js');
  return new SignIn({
    issuer: config.oauthIssuer,
    resource: config.oauthResource,
    scopes: { tools: config.oauthScope, admin: config.oauthAdminScope },
  });
}

/** The token's check, or the signed-in person's, their auth info set on the request. */
export function authorizer(
  rules: AccessRules,
  signIn: SignIn | undefined,
  adminScope: string,
  ownKey?: Pick<OwnKey, 'check'>,
) {
  return async (req: IncomingMessage): Promise<Authorized> => {
    if (ownKey) {
      const signedIn = await ownKey.check(req.headers.authorization);
      if ('status' in signedIn) return signedIn;
      (req as IncomingMessage & { auth?: AuthInfo }).auth = {
        token: '',
        clientId: signedIn.person,
        scopes: [],
        extra: { ...signedIn },
      };
      return { person: signedIn.person };
    }
    if (!signIn) return checkToken(rules, req.headers.authorization);
    const checked = await signIn.check(req.headers.authorization);
    if ('status' in checked) return checked;
    const person = personOf(checked.subject);
    (req as IncomingMessage & { auth?: AuthInfo }).auth = {
      token: '',
      clientId: person,
      scopes: checked.scopes,
      extra: { person, admin: checked.scopes.includes(adminScope) },
    };
    return { person };
  };
}
