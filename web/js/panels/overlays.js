// Shows the one panel the app state names (loading, menu or result), keeps the table inert and unreachable behind
// it, and puts focus where play is.

/**
 * events: the app's emitter; its state's panel ("loading" | "menu" | "result" | null) is the panel shown.
 * panels: {loading, menu, result} elements; background: what they cover.
 * focusOnOpen: {panel name: the element to focus when that panel appears (made focusable: a heading is read
 * first)};
 * playTarget: focused when the table is uncovered during play and focus was left nowhere.
 */
export function showPanels({ events, panels, background, focusOnOpen, playTarget }) {
  for (const target of Object.values(focusOnOpen)) target.tabIndex = -1;

  function focusLost() {
    const active = document.activeElement;
    return !active || active === document.body || active.closest("[hidden], [inert]") !== null;
  }

  function update({ phase, panel, previous }) {
    for (const [name, element] of Object.entries(panels)) element.hidden = name !== panel;
    for (const element of background) element.inert = panel !== null;
    if (panel && panel !== previous?.panel) {
      const target = focusOnOpen[panel];
      if (target && !panels[panel].contains(document.activeElement)) target.focus({ preventScroll: true });
    }
    if (panel === null && phase === "playing" && focusLost()) playTarget.focus({ preventScroll: true });
  }

  events.on("state", update);
  update({ ...events.state(), previous: null });
}
