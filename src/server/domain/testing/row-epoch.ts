/** When the rows a test arranges were made and last written, unless the test says otherwise. */
export const EPOCH = new Date('2026-01-01T00:00:00.000Z');
