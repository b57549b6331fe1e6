// The table's message line: one message at a time, and each one readable for a moment before the next takes its
// place (a short queue), so a burst of events never flashes past unread.

/**
 * element: where the message shows (its "show" class fades it in, "bad" colours a mistake).
 * showMs: how long a message stays when nothing follows it; readMs: the least it stays when another is waiting.
 * waiting: how many messages may wait; beyond that the oldest waiting one is dropped (the table has moved on).
 */
export function createMessageLine(element, { showMs, readMs, waiting = 2 }) {
  const queue = [];
  let shownAt = 0;
  let timer = 0;

  function schedule(delay) {
    clearTimeout(timer);
    timer = setTimeout(next, Math.max(0, delay));
  }

  function display({ text, bad }) {
    element.textContent = text;
    element.classList.toggle("bad", bad);
    element.classList.add("show");
    shownAt = performance.now();
    schedule(queue.length ? readMs : showMs);
  }

  function next() {
    const message = queue.shift();
    if (message) display(message);
    else element.classList.remove("show");
  }

  /**
   * Shows text now, or as soon as the message on show has been up for readMs. An urgent message (the answer to
   * the player's own action, which must not lag the tap) shows at once; the waiting ones follow it.
   */
  function show(text, bad = false, { urgent = false } = {}) {
    const shownFor = performance.now() - shownAt;
    if (urgent || !element.classList.contains("show") || (queue.length === 0 && shownFor >= readMs)) {
      display({ text, bad });
      return;
    }
    queue.push({ text, bad });
    if (queue.length > waiting) queue.shift();
    schedule(readMs - shownFor);
  }

  /** Hides the message and forgets the waiting ones (a new game). */
  function clear() {
    queue.length = 0;
    clearTimeout(timer);
    element.classList.remove("show");
  }

  return { show, clear };
}
