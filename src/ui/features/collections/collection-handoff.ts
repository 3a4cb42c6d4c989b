// How another workbench opens a collection here: it leaves the name and switches the hash; the
// Collections workbench takes it when it mounts. Kept tiny so importing it costs nothing.

let pending: string | null = null;

export const COLLECTIONS_HASH = "#/collections";

/** Leaves the collection's name for the Collections workbench and switches to it. */
export function openInCollections(name: string, loc: Pick<Location, "hash"> = location): void {
  pending = name;
  loc.hash = COLLECTIONS_HASH;
}

/** The collection waiting to be opened, once; null when there is none. */
export function takeCollectionHandoff(): string | null {
  const taken = pending;
  pending = null;
  return taken;
}
