/**
 * What the domain refuses, by kind. No HTTP here: `http/plugins/errors.plugin.ts` alone turns each
 * kind into a status and the message the user sees (decision 011). A message given here is the
 * rule's own wording and safe to show; anything that is not a DomainError is a fault (500).
 */
export abstract class DomainError extends Error {}

/** A value the rules refuse; `field` names the form field it is about. */
export class InvalidValueError extends DomainError {
  override name = 'InvalidValueError';
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

/** What the request names does not exist for this user (a timebox label, a checkout). */
export class NotFoundError extends DomainError {
  override name = 'NotFoundError';
}

/** The account's current state does not allow this yet: a connection missing, a mode switched on. */
export class StateConflictError extends DomainError {
  override name = 'StateConflictError';
}

/** The user's plan at a provider does not include this (task durations need Todoist Premium or Business). */
export class PlanRequiredError extends DomainError {
  override name = 'PlanRequiredError';
}

/** The user the request is for no longer exists (deleted meanwhile): only signing in again helps. */
export class UnknownUserError extends DomainError {
  override name = 'UnknownUserError';

  constructor() {
    super('The user no longer exists');
  }
}

/** A feature whose provider has no credentials here (payments, or one of the integrations). */
export class NotConfiguredError extends DomainError {
  override name = 'NotConfiguredError';
  readonly feature: 'payments' | 'todoist' | 'google' | 'microsoft';

  constructor(feature: NotConfiguredError['feature'], options?: { cause?: unknown }) {
    super(`${feature} is not configured`, options);
    this.feature = feature;
  }
}

/** A signed message from a provider (a webhook) whose signature or timestamp does not hold. */
export class InvalidSignatureError extends DomainError {
  override name = 'InvalidSignatureError';
}
