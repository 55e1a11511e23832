import { describe, expect, it } from 'vitest';
import { followLabel, labelChanges, renamesInForce, renamesOf } from './label-identity.ts';

describe('settings follow Todoist labels by id', () => {
  const focus = { label: 'Focus', labelId: 'L1' };

  it('renames a setting with its label, in a full read and in a read of the changes', () => {
    expect(followLabel(focus, [{ id: 'L1', name: 'Deep work' }], true)).toEqual({
      label: 'Deep work',
      labelId: 'L1',
    });
    expect(followLabel(focus, [{ id: 'L1', name: 'Deep work', deleted: false }], false)).toEqual({
      label: 'Deep work',
      labelId: 'L1',
    });
  });

  it('keeps a setting whose label a read of the changes did not bring', () => {
    expect(followLabel(focus, [{ id: 'L2', name: 'Errands' }], false)).toBe(focus);
  });

  it('keeps the name of a deleted label (the warning row) and forgets its id', () => {
    expect(followLabel(focus, [{ id: 'L1', name: 'Focus', deleted: true }], false)).toEqual({
      label: 'Focus',
      labelId: null,
    });
    expect(followLabel(focus, [{ id: 'L2', name: 'Errands' }], true)).toEqual({
      label: 'Focus',
      labelId: null,
    });
  });

  it('follows a label made again under the name of a deleted one', () => {
    const read = [
      { id: 'L1', name: 'Focus', deleted: true },
      { id: 'L9', name: 'focus', deleted: false },
    ];
    expect(followLabel(focus, read, false)).toEqual({ label: 'Focus', labelId: 'L9' });
  });

  it('gives a setting without an id the id of the label of its name, in any letter case', () => {
    expect(followLabel({ label: '30min', labelId: null }, [{ id: 'L3', name: '30MIN' }], true)).toEqual({
      label: '30min',
      labelId: 'L3',
    });
    expect(followLabel({ label: '30min', labelId: null }, [{ id: 'L3', name: '1h' }], true)).toEqual({
      label: '30min',
      labelId: null,
    });
  });

  it('lists only the settings that change, with what they were', () => {
    const errands = { label: 'Errands', labelId: 'L2' };
    expect(labelChanges([focus, errands], [{ id: 'L2', name: 'Chores' }], false)).toEqual([
      { from: errands, to: { label: 'Chores', labelId: 'L2' } },
    ]);
  });
});

describe('renames kept for the sync to carry onto tasks', () => {
  it('are the settings’ renames, without a change of letter case', () => {
    expect(
      renamesOf([
        { from: '30min', to: 'Half hour' },
        { from: '1h', to: '1H' },
      ]),
    ).toEqual([{ from: '30min', to: 'Half hour' }]);
  });

  it('are no longer in force once a label has the old name again (made anew, or renamed back)', () => {
    const kept = [
      { from: '30min', to: 'Half hour' },
      { from: '1h', to: 'Hour' },
    ];
    expect(renamesInForce(kept, [{ name: 'Half hour' }, { name: 'Hour' }])).toEqual(kept);
    expect(renamesInForce(kept, [{ name: 'Half hour' }, { name: '1H' }])).toEqual([
      { from: '30min', to: 'Half hour' },
    ]);
  });
});
