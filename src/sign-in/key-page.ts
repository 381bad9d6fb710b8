/**
 * The sign-in, as the person sees it: the authorization request shows the key page (page.ts); the
 * key is checked with the service's key-info request (free), and its plan and credits shown before
 * the code is issued. A wrong key gets the page again with one line saying why, and nothing is
 * stored. Each form carries a token tied to its sign-in (CSRF) and takes `decision=allow` or
 * `decision=deny`, so a script goes through it as a browser does. Key tries are limited per
 * address, so the server cannot be used to guess keys.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { PersonLimit } from '../guard/guard.js';
import { readBytes } from '../http/read-body.js';
import { AddressLimit } from './address-limit.js';
import type { PersonKeys } from './keys.js';
import {
  type Asking,
  confirmForm,
  type FormTarget,
  forgetForm,
  keyForm,
  messagePage,
  type Page,
  type Place,
} from './page.js';
import { OIDC_SCOPES, TOOLS_SCOPE, TTL } from './provider.js';
import { UNUSED_SECONDS } from './store.js';

/** The page where a person takes their key back. */
export const FORGET_PATH = '/sign-in/forget';

/** Key tries one address may make in TRY_WINDOW_MS. */
const TRIES = 10;
const TRY_WINDOW_MS = 10 * 60_000;
/** Largest form body read. */
const FORM_BYTES = 8 * 1024;
/** Longest key taken. */
const KEY_CHARS = 256;

/** What the service said of a key: the facts to show, or why it was not accepted. */
export type KeyCheck = { ok: true; facts: string } | { ok: false; problem: string };

export interface KeyPageSettings {
  provider: Provider;
  keys: PersonKeys;
  resource: string;
  /** Where a person gets an API key (SVC_SIGN_IN_KEY_URL). */
  keyUrl?: string;
  checkKey(key: string): Promise<KeyCheck>;
  /** The operator's cap on each person's budget (SVC_USER_CREDIT_BUDGET), and the server's window. */
  operatorBudget?: number;
  window: PersonLimit['window'];
  /** The address a request comes from (behind a proxy, the one the proxy names). */
  addressOf(req: IncomingMessage): string;
}

function send(res: ServerResponse, { status, headers, body }: Page): void {
  res.writeHead(status, headers).end(body);
}

/** The form's fields; 'too large' past FORM_BYTES; undefined when it is not a form or too slow. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | 'too large' | undefined> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '')) return undefined;
  const body = await readBytes(req, FORM_BYTES);
  if ('refusal' in body) return body.refusal.status === 413 ? 'too large' : undefined;
  return new URLSearchParams(body.bytes.toString('utf8'));
}

export class KeyPage {
  private readonly tries = new AddressLimit(TRIES, TRY_WINDOW_MS);
  private readonly formsKey: Buffer;
  private readonly place: Place;

  constructor(private readonly settings: KeyPageSettings) {
    this.formsKey = settings.keys.derive('forms');
    this.place = {
      host: new URL(settings.resource).host,
      keyUrl: settings.keyUrl,
      forgetPath: FORGET_PATH,
      keptDays: UNUSED_SECONDS / 86_400,
    };
  }

  /**
   * GET or POST FORGET_PATH: the person takes their key back, every sign-in made with it here
   * ended. Key tries count as on the key page, so that it tells no one which keys are kept.
   */
  async forget(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET') return send(res, forgetForm(this.place));
    if (req.method !== 'POST')
      return send(res, messagePage('Not allowed', 'This page takes GET and POST.', 405));
    const form = await readForm(req);
    const key = form instanceof URLSearchParams ? (form.get('api_key') ?? '') : '';
    if (key === '' || key.length > KEY_CHARS || !/^[\x21-\x7e]+$/.test(key)) {
      return send(
        res,
        forgetForm(this.place, `Enter your API key: up to ${KEY_CHARS} characters, no spaces.`, 400),
      );
    }
    if (!this.tries.allow(this.settings.addressOf(req))) {
      return send(
        res,
        forgetForm(
          this.place,
          'Too many keys tried from this address: wait a few minutes, then try again.',
          429,
        ),
      );
    }
    const ended = await this.settings.keys.forgetKey(key);
    const said =
      ended === 0
        ? `This server keeps no sign-in with that key: there was nothing to forget.`
        : `Your key is deleted from ${this.place.host}, and ${ended === 1 ? 'the sign-in' : `the ${ended} sign-ins`} made with it ended. Your assistants will ask you to sign in again.`;
    send(res, messagePage('Your key is forgotten', said, 200));
  }

  /** GET or POST /interaction/<uid>. */
  async handle(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const { provider } = this.settings;
    const details = await provider.interactionDetails(req, res).catch(() => undefined);
    if (!details || details.uid !== uid) {
      return send(
        res,
        messagePage(
          'Sign-in expired',
          'This sign-in is no longer open: start again from your assistant.',
          400,
        ),
      );
    }
    const asking = await this.asking(details.params);
    if (req.method === 'GET') return send(res, keyForm(asking, this.place, this.target(uid)));
    if (req.method !== 'POST')
      return send(res, messagePage('Not allowed', 'This page takes GET and POST.', 405));
    const form = await readForm(req);
    if (form === 'too large') {
      const problem = `That is too long for a key: a key is up to ${KEY_CHARS} characters, and the form at most ${FORM_BYTES / 1024} KB.`;
      return send(res, keyForm(asking, this.place, this.target(uid), problem, 413));
    }
    if (!form || !this.csrfMatches(uid, form.get('csrf'))) {
      return send(
        res,
        messagePage(
          'Form expired',
          'This form is not from this sign-in: start again from your assistant.',
          403,
        ),
      );
    }
    if (form.get('decision') !== 'allow') {
      return this.finish(req, res, { error: 'access_denied', error_description: 'The person declined.' });
    }
    // The key form carries the key; the confirming form, only the decision.
    if (!form.has('api_key')) return this.confirm(req, res, details, asking);
    return this.takeKey(req, res, uid, asking, form);
  }

  /** The key form submitted: the key checked, held sealed while the person confirms. */
  private async takeKey(
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    asking: Asking,
    form: URLSearchParams,
  ) {
    const key = form.get('api_key') as string;
    if (key.length > KEY_CHARS || !/^[\x21-\x7e]+$/.test(key)) {
      const problem = `Enter your API key: up to ${KEY_CHARS} characters, no spaces.`;
      return send(res, keyForm(asking, this.place, this.target(uid), problem, 400));
    }
    const budget = form.get('budget')?.trim() ?? '';
    if (budget !== '' && !/^\d{1,12}$/.test(budget)) {
      return send(
        res,
        keyForm(
          asking,
          this.place,
          this.target(uid),
          'The budget is a whole number of credits, or empty for none.',
          400,
        ),
      );
    }
    if (!this.tries.allow(this.settings.addressOf(req))) {
      return send(
        res,
        keyForm(
          asking,
          this.place,
          this.target(uid),
          'Too many keys tried from this address: wait a few minutes, then try again.',
          429,
        ),
      );
    }
    const checked = await this.settings.checkKey(key);
    if (!checked.ok) return send(res, keyForm(asking, this.place, this.target(uid), checked.problem, 400));
    const limit = this.limitOf(budget === '' ? undefined : Number(budget), form.get('window'));
    await this.settings.keys.save(`pending:${uid}`, key, limit, TTL.Interaction);
    send(res, confirmForm(asking, this.place, this.target(uid), [checked.facts, this.budgetLine(limit)]));
  }

  /** The person confirmed: their key kept for their account, the grant made, the code issued. */
  private async confirm(req: IncomingMessage, res: ServerResponse, details: Details, asking: Asking) {
    const { keys, provider, resource } = this.settings;
    const pending = await keys.open(`pending:${details.uid}`);
    if (!pending)
      return send(
        res,
        keyForm(asking, this.place, this.target(details.uid), 'Enter your key again: it was not kept.', 400),
      );
    // Each sign-in is a grant of its own, with the key given in it: tokens issued before (on a
    // shared browser, another person's) keep the key they were issued for.
    const accountId = details.session?.accountId ?? randomUUID();
    const clientId = String(details.params.client_id);
    const grant = new provider.Grant({ accountId, clientId });
    grant.addResourceScope(resource, TOOLS_SCOPE);
    // Granted here in full: the prompt at this point may be login, which does not yet name the scopes.
    const asked = String(details.params.scope ?? '').split(' ');
    grant.addOIDCScope(OIDC_SCOPES.filter((scope) => asked.includes(scope)).join(' '));
    const grantId = await grant.save();
    await keys.save(grantId, pending.key, pending.limit);
    await keys.renew(grantId, clientId);
    await keys.forget(`pending:${details.uid}`);
    return this.finish(req, res, { login: { accountId }, consent: { grantId } });
  }

  private async finish(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>) {
    await this.settings.provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }

  /** The budget the person chose, as the confirming page repeats it. */
  private budgetLine(limit: PersonLimit | undefined): string {
    const capped =
      this.settings.operatorBudget === undefined ? '' : ' (this server allows each person at most that)';
    if (limit?.budget === undefined)
      return "Your budget on this server: none of your own; the service's limits apply.";
    const per = limit.window === 'month' ? 'a month' : 'a day';
    return `Your budget on this server: ${limit.budget.toLocaleString('en-US')} credits ${per} (UTC)${capped}.`;
  }

  /**
   * The person's own budget: where the operator caps each person's (SVC_USER_CREDIT_BUDGET), at most
   * that, in the server's window; else what they chose, in the window they chose.
   */
  private limitOf(chosen: number | undefined, window: string | null): PersonLimit | undefined {
    const { operatorBudget: cap, window: serverWindow } = this.settings;
    if (cap !== undefined)
      return { budget: chosen === undefined ? cap : Math.min(chosen, cap), window: serverWindow };
    if (chosen === undefined) return undefined;
    return { budget: chosen, window: window === 'month' ? 'month' : 'day' };
  }

  private async asking(params: Record<string, unknown>): Promise<Asking> {
    const client = await this.settings.provider.Client.find(String(params.client_id));
    const redirect = URL.parse(String(params.redirect_uri));
    const document =
      (client as { clientIdMetadataDocument?: boolean } | undefined)?.clientIdMetadataDocument === true;
    return {
      name: client?.clientName ?? String(params.client_id),
      redirectHost: redirect?.host ?? String(params.redirect_uri),
      redirectOrigin: redirect?.origin ?? '',
      unverified: !document,
      documentHost: document ? URL.parse(String(params.client_id))?.host : undefined,
    };
  }

  private target(uid: string): FormTarget {
    return { action: `/interaction/${uid}`, csrf: this.csrf(uid) };
  }

  private csrf(uid: string): string {
    return createHmac('sha256', this.formsKey).update(uid).digest('base64url');
  }

  private csrfMatches(uid: string, sent: string | null): boolean {
    const expected = Buffer.from(this.csrf(uid));
    const given = Buffer.from(sent ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

type Details = Awaited<ReturnType<Provider['interactionDetails']>>;
