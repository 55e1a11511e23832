import { randomAlphanumeric } from '../shared/ids.ts';

/** Id shapes as Stripe hands them out (prefix plus random tail; test-mode sessions carry `test`). */
const SHAPES: Record<string, { prefix: string; length: number }> = {
  customer: { prefix: 'cus_', length: 14 },
  subscription: { prefix: 'sub_1', length: 23 },
  subscriptionItem: { prefix: 'si_', length: 14 },
  invoice: { prefix: 'in_1', length: 23 },
  invoiceLine: { prefix: 'il_1', length: 23 },
  invoicePayment: { prefix: 'inpay_1', length: 23 },
  paymentIntent: { prefix: 'pi_3', length: 23 },
  paymentMethod: { prefix: 'pm_1', length: 23 },
  charge: { prefix: 'ch_3', length: 23 },
  checkoutSession: { prefix: 'cs_test_a1', length: 56 },
  portalSession: { prefix: 'bps_1', length: 23 },
  event: { prefix: 'evt_1', length: 23 },
  request: { prefix: 'req_', length: 14 },
  lineItem: { prefix: 'li_1', length: 23 },
  product: { prefix: 'prod_', length: 14 },
  price: { prefix: 'price_1', length: 23 },
};

export type IdKind = keyof typeof SHAPES;

export function stripeId(kind: IdKind): string {
  const shape = SHAPES[kind] ?? { prefix: `${kind}_`, length: 24 };
  return `${shape.prefix}${randomAlphanumeric(shape.length)}`;
}

export function clientSecretFor(paymentIntentId: string): string {
  return `${paymentIntentId}_secret_${randomAlphanumeric(25)}`;
}
