/** Word casing shared by the generator and the catalog sync: `lobby` → `Lobby`. */
export const capitalized = (word: string): string => word[0]!.toUpperCase() + word.slice(1);

/**
 * A dotted catalog name as the generator writes it in identifiers: `guilds.scheduledEvents` →
 * `GuildsScheduledEvents` (its class is that and `Api`, an operation's types that and `Query`).
 */
export const pascalCase = (dotted: string): string => dotted.split('.').map(capitalized).join('');
