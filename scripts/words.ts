/** Word casing shared by the generator and the catalog sync: `lobby` → `Lobby`. */
export const capitalized = (word: string): string => word[0]!.toUpperCase() + word.slice(1);
