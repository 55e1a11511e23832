export const DELETE_CONFIRMATION_WORD = 'delete';

/** Account deletion is confirmed only by typing 'delete', in any letter case (docs/product-rules.md §5). */
export function isDeleteConfirmation(typed: string): boolean {
  return typed.toLowerCase() === DELETE_CONFIRMATION_WORD;
}
