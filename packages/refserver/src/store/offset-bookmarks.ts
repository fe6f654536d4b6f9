/**
 * Keyset bookmarks for offset paging (issue 3: "a page at offset 100,000 costs no more than twice a
 * page at offset 0"). After a page is read, the sort values of the row before it and of its last row
 * are remembered; a later read of the same query at a later offset seeks past the nearest bookmark
 * (`WHERE (order columns) > (bookmark)`) instead of stepping over every skipped row. A bookmark is
 * valid only while the register is unchanged (the store's register version).
 */
export class OffsetBookmarks {
  readonly #queries = new Map<string, { version: number; marks: Map<number, readonly unknown[]> }>();

  /** The bookmark with the highest position below `offset`, or undefined. */
  find(query: string, version: number, offset: number): { position: number; values: readonly unknown[] } | undefined {
    const entry = this.#queries.get(query);
    if (!entry || entry.version !== version) return undefined;
    let best: { position: number; values: readonly unknown[] } | undefined;
    for (const [position, values] of entry.marks) {
      if (position < offset && (!best || position > best.position)) best = { position, values };
    }
    return best;
  }

  /** Remembers the order-column values of the row at `position` (0-based) of a query. */
  remember(query: string, version: number, position: number, values: readonly unknown[]): void {
    let entry = this.#queries.get(query);
    if (!entry || entry.version !== version) {
      if (this.#queries.size >= 100) this.#queries.clear();
      entry = { version, marks: new Map() };
      this.#queries.set(query, entry);
    }
    if (entry.marks.size >= 256) entry.marks.clear();
    entry.marks.set(position, values);
  }
}
