import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readParams } from '../params.ts';

type Params = Record<string, string>;

/** What the sign-in/consent form needs, whatever page the provider draws around it. */
export type ConsentForm = {
  /** Where the form posts: the page's own path. */
  action: string;
  hiddenFields: Record<string, string | undefined>;
  email: string;
  name: string;
};

export type ConsentValidation<R, F> = { ok: true; request: R } | { ok: false; failure: F };

/** The person the form is filled in as. */
export type ConsentAccount = { email: string; name: string };

export type ConsentFlowOptions<R, F> = {
  path: string;
  /** The request parameters the form carries from the GET to the POST. */
  carriedParams: readonly string[];
  /** The form's pre-filled person. */
  defaultAccount: ConsentAccount;
  /** Whether `login_hint` pre-fills the e-mail (Google, Microsoft and our Todoist take it; Facebook not). */
  loginHint: boolean;
  /** Reads the authorization request; the same check runs on the page and on its submission. */
  validate: (params: Params, request: FastifyRequest) => ConsentValidation<R, F>;
  /** A failure to answer instead of the page (Microsoft's `prompt=none`). */
  beforePage?: (request: R, params: Params) => F | undefined;
  renderPage: (request: R, form: ConsentForm) => string;
  sendFailure: (reply: FastifyReply, failure: F) => FastifyReply;
  /** The answer to Cancel. */
  declined: (request: R, reply: FastifyReply) => FastifyReply;
  invalidEmail: F;
  /** Makes the account and the code for a submitted form; returns where to send the browser. */
  approve: (request: R, account: ConsentAccount) => string;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The authorize endpoint: GET shows the form, POST answers it with a code or the provider's refusal. */
export function registerConsentFlow<R, F>(app: FastifyInstance, options: ConsentFlowOptions<R, F>): void {
  app.get(options.path, async (request, reply) => {
    const params = readParams(request.query);
    const validation = options.validate(params, request);
    if (!validation.ok) return options.sendFailure(reply, validation.failure);
    const early = options.beforePage?.(validation.request, params);
    if (early !== undefined) return options.sendFailure(reply, early);
    const html = options.renderPage(validation.request, {
      action: request.url.split('?')[0] ?? request.url,
      hiddenFields: Object.fromEntries(options.carriedParams.map((name) => [name, params[name]])),
      email: (options.loginHint && params.login_hint) || options.defaultAccount.email,
      name: options.defaultAccount.name,
    });
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
  });

  app.post(options.path, async (request, reply) => {
    const params = readParams(request.body);
    const validation = options.validate(params, request);
    if (!validation.ok) return options.sendFailure(reply, validation.failure);
    if (params.decision === 'cancel') return options.declined(validation.request, reply);
    const email = (params.email ?? '').trim();
    if (!EMAIL.test(email)) return options.sendFailure(reply, options.invalidEmail);
    return reply.redirect(options.approve(validation.request, { email, name: (params.name ?? '').trim() }));
  });
}

/** An HTML error page with status 400, as the providers show for a request they cannot send back. */
export function sendErrorPage(reply: FastifyReply, html: string): FastifyReply {
  return reply.code(400).type('text/html; charset=utf-8').send(html);
}
