// Cursor paging as the API does it: every list answers {items, nextCursor}; nextCursor is null on the last page
// and goes back as ?cursor= with the same list.

/** path?limit=N[&cursor=C], with the cursor URL-encoded. */
export function pagePath(path, limit, cursor) {
  const sep = path.includes('?') ? '&' : '?';
  let out = `${path}${sep}limit=${limit}`;
  if (cursor) out += `&cursor=${encodeURIComponent(cursor)}`;
  return out;
}

/** The home feed page after `cursor` (first page without one). */
export function feedPath(limit, cursor) {
  return pagePath('/v1/me/home-feed', limit, cursor);
}

/** A page's next cursor, or null when there is none (last page, or not a page). */
export function nextCursor(page) {
  return page && typeof page.nextCursor === 'string' && page.nextCursor.length > 0 ? page.nextCursor : null;
}

/**
 * Walks a list as a reader does: fetch(null) for the first page, then fetch(cursor) with each page's cursor
 * for up to `extraPages` more, stopping at the last page or at a failed fetch. fetch(cursor, index) returns the
 * parsed page or null on failure; between(index) runs before each further page (think time).
 * Returns {pages, items, complete}: pages fetched, items seen, and whether the list's last page was reached.
 */
export function walk(fetch, extraPages, between = () => {}) {
  let cursor = null;
  let pages = 0;
  let items = 0;
  for (let index = 0; index <= extraPages; index++) {
    if (index > 0) between(index);
    const page = fetch(cursor, index);
    if (!page) return { pages, items, complete: false };
    pages++;
    items += Array.isArray(page.items) ? page.items.length : 0;
    cursor = nextCursor(page);
    if (cursor === null) return { pages, items, complete: true };
  }
  return { pages, items, complete: false };
}
