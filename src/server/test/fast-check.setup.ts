import fc from 'fast-check';

// A failed property's message says what failed in it ("Got …"), not only that it failed: CI's summary
// prints that line (scripts/ci-summary.ts).
fc.configureGlobal({ ...fc.readConfigureGlobal(), includeErrorInReport: true });
