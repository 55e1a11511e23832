import { describe, expect, it } from 'vitest';
import {
  failuresOnly,
  initialSaveStatus,
  nextTimer,
  SAVE_FAILED_TEXT,
  SAVED_FADE_MS,
  SAVED_TEXT,
  SAVED_VISIBLE_MS,
  type SaveStatusEvent,
  type SaveStatusState,
  saveStatusReducer,
  successesOnly,
} from './save-status.ts';

const run = (events: SaveStatusEvent[], from: SaveStatusState = initialSaveStatus) =>
  events.reduce(saveStatusReducer, from);

const start = { type: 'start' } as const;
const succeed = { type: 'succeed' } as const;
const fail = { type: 'fail' } as const;

describe('saveStatusReducer', () => {
  it('shows nothing until the save is answered, then "Saved"', () => {
    const saving = run([start]);
    expect(saving.shown).toBe('none');
    expect(saving.pending).toBe(1);
    const saved = run([succeed], saving);
    expect(saved.shown).toBe('saved');
    expect(saved.pending).toBe(0);
  });

  it('shows the failure when the save fails', () => {
    expect(run([start, fail]).shown).toBe('error');
  });

  it('hides the last answer as soon as another save starts', () => {
    expect(run([start, succeed, start]).shown).toBe('none');
    expect(run([start, fail, start]).shown).toBe('none');
  });

  it('a new try after a failure can end in "Saved"', () => {
    expect(run([start, fail, start, succeed]).shown).toBe('saved');
  });

  it('answers overlapping saves once the last is answered', () => {
    const first = run([start, start, succeed]);
    expect(first.shown).toBe('none');
    expect(first.pending).toBe(1);
    expect(run([succeed], first).shown).toBe('saved');
  });

  it('shows the failure when any of overlapping saves failed, whichever ends last', () => {
    expect(run([start, start, fail, succeed]).shown).toBe('error');
    expect(run([start, start, succeed, fail]).shown).toBe('error');
  });

  it('shows an answer of a save never counted as started at once', () => {
    expect(run([succeed]).shown).toBe('saved');
    expect(run([fail]).shown).toBe('error');
    expect(run([succeed]).pending).toBe(0);
  });

  it('fades "Saved", then takes it out of the page', () => {
    const saved = run([start, succeed]);
    const fading = run([{ type: 'fade', shownCount: saved.shownCount }], saved);
    expect(fading.shown).toBe('fading');
    expect(run([{ type: 'clear', shownCount: saved.shownCount }], fading).shown).toBe('none');
  });

  it('leaves a newer answer alone when an older timer ends', () => {
    const saved = run([start, succeed]);
    const again = run([start, succeed], saved);
    expect(run([{ type: 'fade', shownCount: saved.shownCount }], again).shown).toBe('saved');
    const fading = run([{ type: 'fade', shownCount: saved.shownCount }], saved);
    const failedMeanwhile = run([start, fail], fading);
    expect(run([{ type: 'clear', shownCount: saved.shownCount }], failedMeanwhile).shown).toBe('error');
  });

  it('a save starting while "Saved" fades takes it away at once', () => {
    const saved = run([start, succeed]);
    const fading = run([{ type: 'fade', shownCount: saved.shownCount }], saved);
    expect(run([start], fading).shown).toBe('none');
  });

  it('never fades a failure', () => {
    const failed = run([start, fail]);
    expect(run([{ type: 'fade', shownCount: failed.shownCount }], failed).shown).toBe('error');
    expect(run([{ type: 'clear', shownCount: failed.shownCount }], failed).shown).toBe('error');
  });
});

describe('nextTimer', () => {
  it('fades "Saved" after a few seconds, then clears it once faded', () => {
    const saved = run([start, succeed]);
    const fade = nextTimer(saved);
    expect(fade).toEqual({
      event: { type: 'fade', shownCount: saved.shownCount },
      afterMs: SAVED_VISIBLE_MS,
    });
    expect(SAVED_VISIBLE_MS).toBeGreaterThanOrEqual(2000);
    expect(SAVED_VISIBLE_MS).toBeLessThanOrEqual(5000);
    const fading = run([fade?.event ?? start], saved);
    expect(nextTimer(fading)).toEqual({
      event: { type: 'clear', shownCount: saved.shownCount },
      afterMs: SAVED_FADE_MS,
    });
    const gone = run([nextTimer(fading)?.event ?? start], fading);
    expect(gone.shown).toBe('none');
    expect(nextTimer(gone)).toBeNull();
  });

  it('sets no timer while saving, for a failure or when nothing is shown', () => {
    expect(nextTimer(initialSaveStatus)).toBeNull();
    expect(nextTimer(run([start]))).toBeNull();
    expect(nextTimer(run([start, fail]))).toBeNull();
  });
});

describe('partial reporters', () => {
  const calls = () => {
    const seen: string[] = [];
    const reporter = {
      start: () => seen.push('start'),
      succeed: () => seen.push('succeed'),
      fail: () => seen.push('fail'),
    };
    return { seen, reporter };
  };

  it('successesOnly passes on a success alone (a dialog shows its own failure)', () => {
    const { seen, reporter } = calls();
    const only = successesOnly(reporter);
    only.start();
    only.fail();
    only.succeed();
    expect(seen).toEqual(['succeed']);
  });

  it('failuresOnly passes on a failure alone (a step of a change confirmed later)', () => {
    const { seen, reporter } = calls();
    const only = failuresOnly(reporter);
    only.start();
    only.succeed();
    only.fail();
    expect(seen).toEqual(['fail']);
  });
});

it('says it in plain words', () => {
  expect(SAVED_TEXT).toBe('Saved');
  expect(SAVE_FAILED_TEXT).toBe('Could not save. Please try again.');
});
