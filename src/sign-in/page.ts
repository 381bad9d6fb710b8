/**
 * The key page as HTML: plain, server-rendered, with no outside resource and no script; every value
 * it shows escaped. Its one stylesheet is inline, allowed by its hash in the page's
 * Content-Security-Policy, which also forbids framing and sends forms only here and to the client.
 */
import { createHash } from 'node:crypto';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}label{display:block;margin:1rem 0 .3rem}input,select{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}
.row{display:flex;gap:.5rem}.row>*{flex:1}.buttons{display:flex;flex-wrap:wrap;gap:1rem;margin-top:1.5rem}button{font:inherit;padding:.5rem 1.2rem}
.warn{color:#9a3412}.error{color:#b91c1c;font-weight:600}.note{color:#555;font-size:.9rem}a{color:#1d4ed8}`;
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** Text as HTML, every character that could end or start markup escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`=/]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Who asks: the client's name and where it sends the person back, shown plainly. */
export interface Asking {
  name: string;
  redirectHost: string;
  /** Registered by itself (RFC 7591): its name is its own claim, not checked. */
  unverified: boolean;
  /** Its client ID metadata document's host, which vouches for it. */
  documentHost?: string;
  redirectOrigin: string;
}

/** This server as the person is told of it: its public host, where to get a key, how to take one back. */
export interface Place {
  host: string;
  /** Where a person gets an API key (SVC_SIGN_IN_KEY_URL). */
  keyUrl?: string;
  /** The page that takes a key back. */
  forgetPath: string;
  /** Days an unused key is kept. */
  keptDays: number;
}

/** Where a form posts, and its token tying it to its sign-in. */
export interface FormTarget {
  action: string;
  csrf: string;
}

function formStart(target: FormTarget): string {
  return `<form method="post" action="${escapeHtml(target.action)}"><input type="hidden" name="csrf" value="${escapeHtml(target.csrf)}">`;
}

export interface Page {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function page(title: string, asking: Asking | undefined, content: string, status = 200): Page {
  const formAction = asking ? ` ${asking.redirectOrigin}` : '';
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action 'self'${formAction}; frame-ancestors 'none'; base-uri 'none'`,
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${content}</body></html>`,
  };
}

function who(asking: Asking, place: Place): string {
  const vouched = asking.documentHost
    ? `<p class="note">Its description is published by <strong>${escapeHtml(asking.documentHost)}</strong>.</p>`
    : '';
  const unverified = asking.unverified
    ? '<p class="warn">This client registered itself: its name is its own claim, not verified.</p>'
    : '';
  return `<p><strong>${escapeHtml(asking.name)}</strong> asks to call the Market Data Service with your key through this server, <strong>${escapeHtml(place.host)}</strong>.</p>
<p>It will send you back to <strong>${escapeHtml(asking.redirectHost)}</strong>.</p>${vouched}${unverified}`;
}

/** The form's two buttons, each saying what it does. */
function buttons(allow: string): string {
  return `<div class="buttons"><button type="submit" name="decision" value="allow">${escapeHtml(allow)}</button><button type="submit" name="decision" value="deny">Cancel the sign-in</button></div>`;
}

/** Where a key goes, how long it stays, and how to take it back. */
function keeping(place: Place): string {
  return `<p class="note">Your key goes to ${escapeHtml(place.host)} alone: it checks the key with the service (free), keeps it encrypted for your calls and never shows it again. A key unused for ${place.keptDays} days is deleted; to take it back sooner, <a href="${escapeHtml(place.forgetPath)}">forget your key on this server</a>, or replace the key at the service.</p>`;
}

function getKey(place: Place): string {
  if (place.keyUrl === undefined) return '';
  const host = URL.parse(place.keyUrl)?.host ?? place.keyUrl;
  return `<p class="note">No key yet? <a href="${escapeHtml(place.keyUrl)}" rel="noreferrer">Get one at ${escapeHtml(host)}</a>.</p>`;
}

/** The first form: the key, and an optional budget of the person's own. */
export function keyForm(
  asking: Asking,
  place: Place,
  target: FormTarget,
  problem?: string,
  status = 200,
): Page {
  const error = problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : '';
  return page(
    'Sign in with your key',
    asking,
    `<h1>Sign in with your Market Data Service key</h1>${who(asking, place)}${error}
${formStart(target)}
<label for="api_key">Your API key</label><input id="api_key" name="api_key" type="password" autocomplete="off" maxlength="256">${getKey(place)}
<label for="budget">Your own credit budget on this server (optional)</label>
<div class="row"><input id="budget" name="budget" type="number" min="0" step="1" placeholder="no limit"><select name="window" aria-label="per"><option value="day">per day (UTC)</option><option value="month">per month (UTC)</option></select></div>
${keeping(place)}${buttons('Check my key')}</form>`,
    status,
  );
}

/** The second form: what the service says of the key, and the budget chosen, before the code is issued. */
export function confirmForm(asking: Asking, place: Place, target: FormTarget, facts: string[]): Page {
  const said = facts.map((fact) => `<p>${escapeHtml(fact)}</p>`).join('');
  return page(
    'Allow access',
    asking,
    `<h1>Your key works</h1>${said}${who(asking, place)}
${formStart(target)}${buttons(`Allow ${asking.name} to call with my key`)}</form>`,
  );
}

/** The page that takes a key back: the key, then every sign-in made with it here ends. */
export function forgetForm(place: Place, problem?: string, status = 200): Page {
  const error = problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : '';
  return page(
    'Forget my key',
    undefined,
    `<h1>Forget my key on ${escapeHtml(place.host)}</h1><p>This server keeps your key, encrypted, for the assistants you signed in with. Enter the key: every sign-in made with it here ends, and the key is deleted from this server. Your assistants will ask you to sign in again.</p>${error}
<form method="post" action="${escapeHtml(place.forgetPath)}"><label for="api_key">Your API key</label><input id="api_key" name="api_key" type="password" autocomplete="off" maxlength="256">
<div class="buttons"><button type="submit">Forget my key on this server</button></div></form>
<p class="note">To stop the key working anywhere, replace it at the service.</p>`,
    status,
  );
}

/** A page that ends the sign-in here: what went wrong and what to do. */
export function messagePage(title: string, message: string, status: number): Page {
  return page(title, undefined, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`, status);
}
