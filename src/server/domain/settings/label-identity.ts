/**
 * Settings follow a Todoist label by its id, not its name (docs/product-rules.md §10 "Changes around
 * the sync"): Todoist keeps a label's id when the user renames it, and renames it on every task, so a
 * setting that kept only the old name would lose every task it timeboxes. Pure: the settings
 * repository (a full read of the labels) and the sync engine (the labels a run's read brought) apply
 * the same rule.
 */

/** A setting's reference to a label: the name shown and matched on tasks, and the label's id. */
export type LabelReference = { label: string; labelId: string | null };

/** A label as a read of Todoist brought it; `deleted` only in incremental reads. */
export type LabelSeen = { id: string; name: string; deleted?: boolean };

/**
 * Where `reference` stands after Todoist's labels were read. `complete`: `labels` is every label of the
 * account (a label not in it is gone); otherwise only the labels changed since the last read.
 * - its label is there under another name: renamed with it;
 * - its label was deleted: the name stays (the setting becomes the "missing in Todoist" row) and the id
 *   is forgotten, so a label made again under that name is followed from then on;
 * - no id yet: the label of the same name (any letter case) gives it one.
 */
export function followLabel(
  reference: LabelReference,
  labels: readonly LabelSeen[],
  complete: boolean,
): LabelReference {
  const live = labels.filter((label) => !label.deleted);
  if (reference.labelId !== null) {
    const same = labels.find((label) => label.id === reference.labelId);
    if (same && !same.deleted) return { label: same.name, labelId: same.id };
    if (same?.deleted || complete) return adopt({ label: reference.label, labelId: null }, live);
    return reference;
  }
  return adopt(reference, live);
}

function adopt(reference: LabelReference, live: readonly LabelSeen[]): LabelReference {
  const named = live.find((label) => label.name.toLowerCase() === reference.label.toLowerCase());
  return named ? { label: reference.label, labelId: named.id } : reference;
}

/** The references that change, with their old label (the key settings rows are found by). */
export function labelChanges<T extends LabelReference>(
  references: readonly T[],
  labels: readonly LabelSeen[],
  complete: boolean,
): { from: T; to: LabelReference }[] {
  return references.flatMap((from) => {
    const to = followLabel(from, labels, complete);
    return to.label === from.label && to.labelId === from.labelId ? [] : [{ from, to }];
  });
}

/**
 * A label's name before and after a rename a setting followed. Kept (`todo_settings.label_renames`)
 * until a sync run that read the tasks has carried it onto them: a task written with the old name by
 * a write that raced the rename would otherwise look out of scope and lose its event, even when the
 * rename was followed by the dashboard's read or by a run that failed afterwards.
 */
export type LabelRename = { from: string; to: string };

/** The renames `from` → `to` of the settings a follow changed (a change of letter case is none). */
export function renamesOf(changes: readonly { from: string; to: string }[]): LabelRename[] {
  return changes.filter(({ from, to }) => from.toLowerCase() !== to.toLowerCase());
}

/**
 * The kept renames still to carry onto tasks: a name that is a label's name again (made anew, or
 * renamed back) has tasks of its own, which are left alone.
 */
export function renamesInForce(
  renames: readonly LabelRename[],
  labels: readonly { name: string }[],
): LabelRename[] {
  const names = new Set(labels.map((label) => label.name.toLowerCase()));
  return renames.filter((rename) => !names.has(rename.from.toLowerCase()));
}
