import { describe, expect, it } from 'vitest';
import { MESSAGES } from '#shared/settings/settings.schema.ts';
import {
  DEFAULT_NEW_LABEL_COLOR,
  fieldOfIssue,
  filterLabelChoices,
  findTodoistLabel,
  initialLabelColor,
  labelChoices,
  otherTimeboxLabels,
  planTimeboxSave,
  validateTimebox,
} from './timebox-form.ts';

const labels = [
  { id: 'l2', name: '60Minutes', color: 'red', item_order: 2 },
  { id: 'l1', name: '30Minutes', color: 'teal', item_order: 1 },
];
const settings = [
  { label: '30Minutes', duration: 30 },
  { label: '60Minutes', duration: 60 },
];

describe('validateTimebox (docs/product-rules.md §5)', () => {
  it('checks the duration first and shows only its message', () => {
    expect(validateTimebox({ label: '', duration: '' }, [])).toEqual({ duration: MESSAGES.durationEmpty });
  });

  it.each([
    ['', MESSAGES.durationEmpty],
    ['abc', MESSAGES.durationNotNumber],
    ['7.5', MESSAGES.durationNotInteger],
    ['0', MESSAGES.durationRange],
    ['1441', MESSAGES.durationRange],
  ])('duration %j → %s', (duration, message) => {
    expect(validateTimebox({ label: 'x', duration }, [])).toEqual({ duration: message });
  });

  it.each([
    ['', MESSAGES.labelEmpty],
    ['x'.repeat(61), MESSAGES.labelTooLong],
    ['60minutes', MESSAGES.labelDuplicate],
  ])('label %j → %s once the duration is valid', (label, message) => {
    expect(validateTimebox({ label, duration: '45' }, otherTimeboxLabels(settings, '30Minutes'))).toEqual({
      label: message,
    });
  });

  it('lets an edit keep its own label', () => {
    expect(
      validateTimebox({ label: '30Minutes', duration: '25' }, otherTimeboxLabels(settings, '30Minutes')),
    ).toEqual({});
  });
});

describe('labelChoices', () => {
  it('lists the Todoist labels by their Todoist order', () => {
    expect(labelChoices(labels)).toEqual([
      { value: '30Minutes', missing: false },
      { value: '60Minutes', missing: false },
    ]);
  });

  it('puts a warning option first for an edited label Todoist does not have', () => {
    expect(labelChoices(labels, '2_h')[0]).toEqual({ value: '2_h', missing: true });
    expect(labelChoices(labels, '30minutes')).toHaveLength(2);
  });
});

describe('planTimeboxSave', () => {
  const base = { todoistLabels: labels, todoistConnected: true };

  it('adds with an existing label and its colour: one call', () => {
    expect(
      planTimeboxSave({ ...base, values: { label: '30Minutes', duration: ' 30 ' }, color: 'teal' }),
    ).toEqual([{ kind: 'add', label: '30Minutes', duration: 30 }]);
  });

  it('creates a new label on Todoist first', () => {
    expect(
      planTimeboxSave({ ...base, values: { label: ' 45Minutes ', duration: '45' }, color: 'grape' }),
    ).toEqual([
      { kind: 'createLabel', label: '45Minutes', color: 'grape' },
      { kind: 'add', label: '45Minutes', duration: 45 },
    ]);
  });

  it('updates the colour on edit when it changed and the label exists', () => {
    expect(
      planTimeboxSave({
        ...base,
        originalLabel: '60Minutes',
        values: { label: '60Minutes', duration: '90' },
        color: 'blue',
      }),
    ).toEqual([
      { kind: 'updateLabelColor', labelId: 'l2', color: 'blue' },
      { kind: 'edit', label: '60Minutes', newLabel: '60Minutes', duration: 90 },
    ]);
  });

  it('does not touch Todoist without a connection', () => {
    expect(
      planTimeboxSave({
        todoistLabels: [],
        todoistConnected: false,
        originalLabel: 'a',
        values: { label: 'b', duration: '5' },
        color: 'red',
      }),
    ).toEqual([{ kind: 'edit', label: 'a', newLabel: 'b', duration: 5 }]);
  });
});

describe('label lookups', () => {
  it('finds a label exactly, else ignoring case', () => {
    expect(findTodoistLabel(labels, '30minutes')?.id).toBe('l1');
    expect(findTodoistLabel(labels, 'nope')).toBeUndefined();
  });

  it('starts the colour picker at the label colour, or teal (code 38) for a new label', () => {
    expect(initialLabelColor(labels, '60Minutes')).toBe('red');
    expect(initialLabelColor(labels, 'new')).toBe(DEFAULT_NEW_LABEL_COLOR);
    expect(DEFAULT_NEW_LABEL_COLOR).toBe('teal');
  });
});

describe('filterLabelChoices', () => {
  const values = ['15Minutes', '30Minutes', '1_h'];

  it('shows every choice while empty or when one is chosen', () => {
    expect(filterLabelChoices(values, '')).toEqual(values);
    expect(filterLabelChoices(values, '30minutes')).toEqual(values);
  });

  it('narrows to the choices containing the typed text', () => {
    expect(filterLabelChoices(values, 'min')).toEqual(['15Minutes', '30Minutes']);
    expect(filterLabelChoices(values, 'new')).toEqual([]);
  });
});

describe('fieldOfIssue', () => {
  it('maps the server fields to the form fields', () => {
    expect(fieldOfIssue('newLabel')).toBe('label');
    expect(fieldOfIssue('label')).toBe('label');
    expect(fieldOfIssue('duration')).toBe('duration');
    expect(fieldOfIssue('color')).toBeNull();
  });
});
