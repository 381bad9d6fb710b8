/**
 * The key page as a person reads it, by script (its forms by their field names): it names the
 * server the key is given to, how long an unused key is kept and how to take it back, where to get
 * a key when the operator says where, a refused key in plain words, and, once the key works, the
 * plan's figures and the budget chosen; each button says what it does. Taking the key back works:
 * every sign-in made with it on this server ends (its access and refresh tokens refused), another
 * person's does not, and the key is deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newStateDir } from '../helpers/cli.js';
import {
  formOf,
  pkce,
  problemOf,
  ScriptedSignIn,
  startOwnKeyServer,
  statusWith,
} from '../helpers/own-key.js';
import { type Sandbox, startTestSandbox } from '../helpers/sandbox.js';
import { PERSON_KEYS } from '../helpers/secret.js';
import type { HttpServer } from '../helpers/session.js';

const [ANA, BEN] = PERSON_KEYS as [string, string];
const KEY_URL = 'https://keys.example.com/api';
let sandbox: Sandbox;
let server: HttpServer & { resource: string };

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: false, keys: { [ANA]: 'startup', [BEN]: 'startup' } });
  server = await startOwnKeyServer(sandbox, { SVC_STATE_DIR: newStateDir(), SVC_SIGN_IN_KEY_URL: KEY_URL });
});
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

/** Text as the page shows it: tags out, entities read. */
const shown = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)))
    .replace(/\s+/g, ' ')
    .replace(/ ([.,:;)])/g, '$1');

/** The key page of a new sign-in. */
async function keyPage(): Promise<{ person: ScriptedSignIn; html: string }> {
  const person = new ScriptedSignIn(server.origin, server.resource);
  const { clientId } = await person.register();
  const asked = await person.authorize(clientId as string, pkce().challenge);
  const page = await person.send(asked.headers.get('location') ?? '');
  expect(page.status).toBe(200);
  return { person, html: page.text };
}

describe('the key page', () => {
  it('names the server, how long the key is kept, how to take it back, and where to get one', async () => {
    const { html } = await keyPage();
    const text = shown(html);
    const host = new URL(server.resource).host;
    expect(text).toContain(
      `asks to call the Market Data Service with your key through this server, ${host}.`,
    );
    expect(text).toContain(`Your key goes to ${host} alone`);
    expect(text).toContain('A key unused for 30 days is deleted');
    expect(html).toContain('<a href="&#47;sign-in&#47;forget">forget your key on this server</a>');
    expect(html).toMatch(
      /<a href="https:&#47;&#47;keys\.example\.com&#47;api" rel="noreferrer">Get one at keys\.example\.com<\/a>/,
    );
    expect(html).toContain('<button type="submit" name="decision" value="allow">Check my key</button>');
    expect(html).toContain('<button type="submit" name="decision" value="deny">Cancel the sign-in</button>');
  });

  it('a refused key is said in plain words, with no code', async () => {
    const { person, html } = await keyPage();
    const answer = await person.submit(formOf(html), { api_key: 'not-a-real-key', decision: 'allow' });
    expect(answer.status).toBe(400);
    expect(problemOf(answer.text)).toBe(
      'The service did not accept this key: it is not a valid API key (check that it was copied whole). Check it and try again.',
    );
    expect(shown(answer.text)).not.toMatch(/error \d|100\d/);
  });

  it('once the key works: the plan, the budget chosen, and a button that says what it allows', async () => {
    const { person, html } = await keyPage();
    const answer = await person.submit(formOf(html), {
      api_key: ANA,
      budget: '100',
      window: 'day',
      decision: 'allow',
    });
    const text = shown(answer.text);
    expect(text).toMatch(
      /The service accepted this key\. Its plan: 120,000 credits a month \([\d,]+ left this month\)/,
    );
    expect(text).toContain('Your budget on this server: 100 credits a day (UTC).');
    expect(text).toContain('Allow scripted client to call with my key');
  });
});

describe('on Node 20', () => {
  it.skipIf(Number(process.versions.node.split('.')[0]) >= 22)(
    "the server says once, in its own words, that oidc-provider's authors support Node 22 and later",
    () => {
      const log = server.stderr();
      expect(
        log.match(
          /own-key sign-in: its authorization server, oidc-provider, is supported by its authors on Node 22 and later/g,
        ),
      ).toHaveLength(1);
      expect(log).not.toContain('Unsupported runtime');
    },
  );
});

describe('taking a key back', () => {
  it('ends every sign-in made with it here, and no one else’s', async () => {
    const first = await new ScriptedSignIn(server.origin, server.resource).signIn(ANA);
    const anaAgain = new ScriptedSignIn(server.origin, server.resource);
    const second = await anaAgain.signIn(ANA);
    const ben = await new ScriptedSignIn(server.origin, server.resource).signIn(BEN);
    for (const t of [first, second, ben])
      expect(await statusWith(server.url, t.tokens.access_token)).toBe(200);

    const browser = new ScriptedSignIn(server.origin, server.resource);
    const form = await browser.send('/sign-in/forget');
    expect(form.status).toBe(200);
    expect(shown(form.text)).toContain(`Forget my key on ${new URL(server.resource).host}`);
    const post = (key: string) =>
      browser.send('/sign-in/forget', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ api_key: key }),
      });
    const done = await post(ANA);
    expect(done.status).toBe(200);
    expect(shown(done.text)).toContain('and the 2 sign-ins made with it ended');

    for (const t of [first, second]) expect(await statusWith(server.url, t.tokens.access_token)).toBe(401);
    const refreshed = await anaAgain.refresh(second.clientId, second.tokens.refresh_token as string);
    expect(refreshed.status).toBe(400);
    expect(await statusWith(server.url, ben.tokens.access_token)).toBe(200);

    expect(shown((await post(ANA)).text)).toContain('This server keeps no sign-in with that key');
    const empty = await post('');
    expect(empty.status).toBe(400);
    expect(problemOf(empty.text)).toMatch(/^Enter your API key/);
  });
});
