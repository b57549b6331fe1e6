// The "new version available — reload" banner: shown only while an update waits and play is paused, so a
// reload never cuts a game short.

const PAUSES = new Set(["ready", "over", "error"]); // phases where a reload loses nothing

/**
 * element: #update-banner, holding one button. events: the app's emitter (the banner follows its phase).
 * Returns {offer(), isOffered(), onAccept(listener)}.
 */
export function createUpdateBanner({ element, events }) {
  let pending = false;
  const render = () => {
    element.hidden = !(pending && PAUSES.has(events.state().phase));
  };
  events.on("state", render);
  render();
  return {
    offer() {
      pending = true;
      render();
    },
    isOffered: () => pending,
    onAccept(listener) {
      element.querySelector("button").addEventListener("click", listener);
    },
  };
}
