import { createRequire } from 'node:module';

/**
 * Whether the secrets a production start is given could be guessed. A person's secret (a sentence, words
 * and a year, a keyboard row) is estimated by zxcvbn-ts, the password-strength estimator; key material
 * (32 bytes) is refused when its bytes show a pattern random bytes never have.
 */

export const SESSION_SECRET_MIN_LENGTH = 32;
/**
 * zxcvbn's estimate of the guesses a secret needs, as a power of ten. 32 random characters of base64 or
 * hex estimate at 31 to 43; `my-super-secret-session-key-2024` at 21.5 and `ThisIsMySecretKeyForTimeboxerApp`
 * at 25.4 (docs/operations.md, "Secrets").
 */
export const MIN_SECRET_GUESSES_LOG10 = 30;
/** A random 32-character secret has about 26 different characters; a hand-made one far fewer. */
const MIN_DISTINCT_SECRET_CHARACTERS = 12;
/** The estimate reads this many characters: a longer random secret is no weaker for it. */
const ESTIMATED_LENGTH = 64;

type Estimator = { check(secret: string): { guessesLog10: number } };
let estimator: Estimator | null = null;
/** Each secret's estimate, once per process (tests start many apps with the same one). */
const estimates = new Map<string, number>();

/** Built on first use (its dictionaries take a second), so only a production start pays for it. */
function strengthEstimator(): Estimator {
  if (estimator) return estimator;
  const require = createRequire(import.meta.url);
  const { ZxcvbnFactory } = require('@zxcvbn-ts/core');
  const common = require('@zxcvbn-ts/language-common');
  const english = require('@zxcvbn-ts/language-en');
  estimator = new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    // Fewer l33t substitutions tried: the estimate of a random secret takes 0.2 s instead of 2.
    l33tMaxSubstitutions: 10,
  }) as Estimator;
  return estimator;
}

/** Why `name`'s value could be guessed, or null when it looks random enough. */
export function guessableSecretProblem(name: string, secret: string): string | null {
  if (secret.length < SESSION_SECRET_MIN_LENGTH) {
    return `${name} must be at least ${SESSION_SECRET_MIN_LENGTH} characters`;
  }
  if (new Set(secret).size < MIN_DISTINCT_SECRET_CHARACTERS) {
    return `${name} looks made by hand (too few different characters): use a random one`;
  }
  const estimated = secret.slice(0, ESTIMATED_LENGTH);
  const guessesLog10 = estimates.get(estimated) ?? strengthEstimator().check(estimated).guessesLog10;
  estimates.set(estimated, guessesLog10);
  if (guessesLog10 < MIN_SECRET_GUESSES_LOG10) {
    return `${name} could be guessed (words, years, sequences or repeats): use a random one, e.g. openssl rand -base64 32`;
  }
  return null;
}

/** The shortest period after which `bytes` repeat themselves, if one of at most `longest` bytes does. */
function repeatingPeriod(bytes: Uint8Array, longest: number): number | null {
  for (let period = 1; period <= longest; period += 1) {
    if (bytes.every((byte, index) => index < period || byte === bytes[index - period])) return period;
  }
  return null;
}

/** Bytes that count up or down by one step (0x00 0x01 0x02 …, or 11 48 85 … by 37). */
function isArithmetic(bytes: Uint8Array): boolean {
  const step = ((bytes[1] ?? 0) - (bytes[0] ?? 0) + 256) % 256;
  return bytes.every((byte, index) => index === 0 || (byte - (bytes[index - 1] ?? 0) + 256) % 256 === step);
}

/**
 * Why 32 bytes of key material are not random, or null. Random bytes have about 30 different values, no
 * period, no steady step, and bytes outside printable ASCII: text pasted as a key (`0123456789abcdef…`)
 * has none. The chance that 32 random bytes fail any of these is below one in 10^13.
 */
export function weakKeyProblem(key: Uint8Array): string | null {
  const period = repeatingPeriod(key, key.length / 2);
  if (period === 1) return 'is one byte repeated';
  if (period !== null) return `repeats itself every ${period} bytes`;
  if (isArithmetic(key)) return 'counts up in steps, it is not random';
  if (new Set(key).size < 16) return 'has too few different bytes';
  if (key.every((byte) => byte >= 0x20 && byte <= 0x7e)) return 'is text, not random bytes';
  return null;
}
