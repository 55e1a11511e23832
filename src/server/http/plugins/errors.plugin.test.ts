import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { BillingUnavailableError } from '#server/domain/billing/billing-gateway.port.ts';
import {
  ProviderFailedError,
  ProviderRequestError,
} from '#server/domain/integrations/integration-providers.port.ts';
import { NotConnectedError, ReconnectRequiredError } from '#server/domain/integrations/token-manager.ts';
import {
  InvalidSignatureError,
  InvalidValueError,
  NotConfiguredError,
  NotFoundError,
  PlanRequiredError,
  StateConflictError,
  UnknownUserError,
} from '#server/domain/shared/domain-errors.ts';
import { AppError } from '#server/errors.ts';
import { errorsPlugin } from './errors.plugin.ts';

/** Answers GET / by throwing the given error, through the errors plugin. */
async function answerTo(error: Error) {
  const app = Fastify({ logger: false });
  await app.register(errorsPlugin);
  app.get('/', async () => {
    throw error;
  });
  const response = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  return { status: response.statusCode, body: response.json() };
}

describe('errorsPlugin', () => {
  it.each([
    [
      new InvalidValueError('label', 'This label is already in use'),
      400,
      {
        error: 'bad_request',
        message: 'This label is already in use',
        issues: [{ field: 'label', message: 'This label is already in use' }],
      },
    ],
    [
      new InvalidSignatureError('The webhook signature is not valid.'),
      400,
      { error: 'bad_request', message: 'The webhook signature is not valid.' },
    ],
    [
      new UnknownUserError(),
      401,
      { error: 'unauthorized', message: 'Please log in to access your account.' },
    ],
    [
      new PlanRequiredError('Requires Todoist Premium or Business'),
      403,
      { error: 'forbidden', message: 'Requires Todoist Premium or Business' },
    ],
    [
      new NotFoundError('No timebox setting has the label Focus.'),
      404,
      { error: 'not_found', message: 'No timebox setting has the label Focus.' },
    ],
    [
      new StateConflictError('Please connect a calendar first.'),
      409,
      { error: 'conflict', message: 'Please connect a calendar first.' },
    ],
    [new NotConnectedError('todoist'), 409, { error: 'conflict', message: 'Please connect Todoist first.' }],
    [
      new NotConnectedError('calendar'),
      409,
      { error: 'conflict', message: 'Please connect your calendar first.' },
    ],
    [
      new ReconnectRequiredError('todoist'),
      409,
      { error: 'conflict', message: 'Please connect Todoist again: it no longer accepts our access.' },
    ],
    [
      new NotConfiguredError('payments'),
      503,
      { error: 'not_configured', message: 'Payments are not available right now.' },
    ],
    [
      new NotConfiguredError('microsoft'),
      503,
      { error: 'not_configured', message: 'This integration is not available right now.' },
    ],
    [
      new ProviderFailedError('todoist', { cause: new ProviderRequestError('labels failed', 500) }),
      502,
      { error: 'upstream_error', message: 'Todoist did not answer as expected. Please try again.' },
    ],
    [
      new ProviderFailedError('calendar', { cause: new ProviderRequestError('calendars failed', 503) }),
      502,
      { error: 'upstream_error', message: 'Your calendar did not answer as expected. Please try again.' },
    ],
    [
      new BillingUnavailableError('Stripe failed: create payment intent', {
        cause: new Error('No such customer: cus_123; a similar object exists in live mode'),
      }),
      502,
      { error: 'upstream_error', message: 'Payments did not answer as expected. Please try again.' },
    ],
  ])('answers %s with its status and message', async (error, status, body) => {
    expect(await answerTo(error)).toEqual({ status, body });
  });

  it('answers an edge AppError with its own code and status', async () => {
    expect(
      await answerTo(new AppError('cross_site_request', 'This request must come from the app itself.')),
    ).toEqual({
      status: 403,
      body: { error: 'cross_site_request', message: 'This request must come from the app itself.' },
    });
  });

  it('hides any other error behind a generic 500', async () => {
    expect(await answerTo(new Error('connection string with a password'))).toEqual({
      status: 500,
      body: { error: 'internal', message: 'Something went wrong on our side. Please try again.' },
    });
  });
});
