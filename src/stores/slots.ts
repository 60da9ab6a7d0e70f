/** Store-wide slots (`StoreSlots`), one value per name made on first use: each store that makes memory views keeps one. */
import type { StoreSlots } from '../contracts/store.ts';

export function newStoreSlots(): StoreSlots {
  const slots = new Map<string, unknown>();
  return <T>(name: string, make: () => T): T => {
    if (!slots.has(name)) slots.set(name, make());
    return slots.get(name) as T;
  };
}
