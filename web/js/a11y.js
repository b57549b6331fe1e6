// Keeps the table inert and unreachable behind the loading, menu and result panels, and puts focus where play is.

/**
 * overlays: panels that cover the table while shown (not [hidden]); background: what they cover.
 * focusOnOpen(overlay) -> the element to focus when that overlay appears (or null);
 * playTarget: focused when every overlay has gone and focus was left nowhere.
 */
export function watchOverlays({ overlays, background, focusOnOpen, playTarget }) {
  const shown = new Set();

  function focusLost() {
    const active = document.activeElement;
    return !active || active === document.body || active.closest("[hidden], [inert]") !== null;
  }

  function update() {
    const open = overlays.filter((el) => !el.hidden);
    for (const el of background) el.inert = open.length > 0;
    for (const overlay of open) {
      if (shown.has(overlay)) continue;
      shown.add(overlay);
      const target = focusOnOpen(overlay);
      if (target && !overlay.contains(document.activeElement)) target.focus({ preventScroll: true });
    }
    for (const overlay of [...shown]) if (overlay.hidden) shown.delete(overlay);
    if (!open.length && focusLost() && document.body.dataset.state === "playing") playTarget.focus({ preventScroll: true });
  }

  const observer = new MutationObserver(update);
  for (const overlay of overlays) observer.observe(overlay, { attributes: true, attributeFilter: ["hidden"] });
  update();
  return { update };
}
