// Whether this visit may download the memory snapshot in the background for the next one, from what the
// browser says about its link (the Network Information API, where it exists).

/**
 * Why not to fetch the snapshot for the next visit, or null when it may be fetched: only when the browser says
 * to save data or that the link is a cellular one. A browser without navigator.connection (Safari, Firefox)
 * says neither, so its players get the fast path too; a link's speed estimate is not asked (headless and
 * desktop Chromium report a low downlink on fast links, and the download waits until the game is idle).
 */
export function reasonNotToFetch(connection) {
  if (!connection) return null;
  if (connection.saveData === true) return "the browser asks to save data";
  if (connection.type === "cellular") return "a cellular link";
  return null;
}
