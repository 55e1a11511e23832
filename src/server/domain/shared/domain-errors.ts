/**
 * An error whose `name` (in logs and messages) is its class's own, so that a subclass need not repeat it.
 * The base of the domain's and the ports' errors.
 */
export class NamedError extends Error {
  override name = this.constructor.name;
}

/**
 * What the domain refuses, by kind. No HTTP here: `http/plugins/errors.plugin.ts` alone turns each
 * kind into a status and the message the user sees (decision 011). A message given here is the
 * rule's own wording and safe to show; anything that is not a DomainError is a fault (500).
 */
export abstract class DomainError extends NamedError {}

/** A value the rules refuse; `field` names the form field it is about. */
export class InvalidValueError extends DomainError {
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

/** What the request names does not exist for this user (a timebox label, a checkout). */
export class NotFoundError extends DomainError {}

/** The account's current state does not allow this yet: a connection missing, a mode switched on. */
export class StateConflictError extends DomainError {}

/** The user's plan at a provider does not include this (task durations need Todoist Premium or Business). */
export class PlanRequiredError extends DomainError {}

/** The user the request is for no longer exists (deleted meanwhile): only signing in again helps. */
export class UnknownUserError extends DomainError {
  constructor() {
    super('The user no longer exists');
  }
}

/** A feature whose provider has no credentials here (payments, or one of the integrations). */
export class NotConfiguredError extends DomainError {
  readonly feature: 'payments' | 'todoist' | 'google' | 'microsoft';

  constructor(feature: NotConfiguredError['feature'], options?: { cause?: unknown }) {
    super(`${feature} is not configured`, options);
    this.feature = feature;
  }
}

/** A signed message from a provider (a webhook) whose signature or timestamp does not hold. */
export class InvalidSignatureError extends DomainError {}

/** The user asked for something costly too often, or the app's share of a provider is spent: try later. */
export class TooManyRequestsError extends DomainError {
  readonly retryAfterMs: number;

  constructor(message: string, retryAfterMs: number) {
    super(message);
    this.retryAfterMs = retryAfterMs;
  }
}
