// Builds page elements from plain data: text always as textContent (never HTML), test ids and classes by name.

/** A `tag` element with `props` (testid, className, text, or any attribute) and `children` appended. */
export function element(tag, props = {}, children = []) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "testid") el.dataset.testid = value;
    else if (key === "className") el.className = value;
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value);
  }
  el.append(...children);
  return el;
}

/**
 * Brings `el` (a message the player must see: a joined board, a refused link or name) into view in the menu and
 * gives it focus, so a screen reader reads it too: now if the menu is shown, else as soon as it opens (after it
 * has set its own scroll to the top). events: the app's emitter; block: where in the view (scrollIntoView's).
 */
export function bringIntoView(el, events, { block = "center" } = {}) {
  const show = () =>
    requestAnimationFrame(() => {
      if (el.hidden || !el.isConnected) return;
      if (!el.hasAttribute("tabindex")) el.tabIndex = -1;
      el.scrollIntoView({ block });
      el.focus({ preventScroll: true });
    });
  if (events.state().panel === "menu") {
    show();
    return;
  }
  const stop = events.on("state", ({ panel }) => {
    if (panel !== "menu") return;
    stop();
    show();
  });
}
