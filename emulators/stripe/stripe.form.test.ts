import { describe, expect, it } from 'vitest';
import { parseStripeForm } from './stripe.form.ts';

describe('parseStripeForm', () => {
  it('reads indexed and appended arrays and nested objects', () => {
    expect(
      parseStripeForm(
        'line_items[0][price]=price_1&line_items[0][quantity]=1&expand[]=a&expand[]=b.c&subscription_data[trial_period_days]=14',
      ),
    ).toEqual({
      line_items: [{ price: 'price_1', quantity: '1' }],
      expand: ['a', 'b.c'],
      subscription_data: { trial_period_days: '14' },
    });
  });

  it('decodes percent escapes and plus signs, in keys too', () => {
    expect(
      parseStripeForm('success_url=http%3A%2F%2Fx%2Fok%3Fs%3D%7BCHECKOUT_SESSION_ID%7D&name=Ada+King'),
    ).toEqual({
      success_url: 'http://x/ok?s={CHECKOUT_SESSION_ID}',
      name: 'Ada King',
    });
    expect(parseStripeForm('lookup_keys%5B0%5D=a&lookup_keys%5B1%5D=b')).toEqual({ lookup_keys: ['a', 'b'] });
  });

  it('keeps metadata keys as keys, even numeric ones, and empty values', () => {
    expect(parseStripeForm('metadata[0]=zero&metadata[userId]=&x=')).toEqual({
      metadata: { '0': 'zero', userId: '' },
      x: '',
    });
  });

  it('orders indexed arrays by index', () => {
    expect(parseStripeForm('a[1]=second&a[0]=first')).toEqual({ a: ['first', 'second'] });
  });
});
