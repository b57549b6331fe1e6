// Loading a board (the daily board's days, a friends' board's days): one request per board wanted at a time, an
// answer that comes after the player (or the UTC day) moved on dropped for the board wanted now, the last board
// seen kept for when the network is not there, and whether the board shown is fresh enough for the menu's opening.

/** A board fetched this recently is not asked for again when the menu opens. */
export const REFRESH_MS = 5_000;

const NOTHING = Object.freeze({ key: null, board: null, offline: false, failed: false, seenAt: null });

/**
 * wanted(): the key (text) of the board to show now, or null for none; fetchAnswer(key): the API's answer for it
 * (board-api.js: {board, offline, failed}); clock: the page's wall clock; ready(): whether the page shows boards
 * yet (not under the loading screen); keep: {read(key) -> {board, seenAt} | null, write(key, board, seenAt)}, the
 * boards kept for offline, or null; onShown(shown): a board (or its absence) is now the one shown.
 * load({fresh}) asks for the wanted board (the same request on its way answers both callers; fresh: ask anew);
 * current(): what is shown for the wanted board ({key, board, offline, failed, seenAt}), or null while it loads;
 * stale(): whether the menu's opening should ask again; forget(): nothing shown any more.
 */
export function createBoardLoader({ wanted, fetchAnswer, clock, ready = () => true, keep = null, onShown }) {
  let shown = NOTHING;
  let shownAt = Number.NEGATIVE_INFINITY;
  let asked = null; // {key, promise}: the request on its way
  let asking = null; // the key of the latest request

  function load({ fresh = false } = {}) {
    const key = wanted();
    if (key === null || !ready()) return Promise.resolve();
    if (!fresh && asked?.key === key) return asked.promise;
    const promise = ask(key).finally(() => {
      if (asked?.promise === promise) asked = null;
    });
    asked = { key, promise };
    return promise;
  }

  async function ask(key) {
    asking = key;
    const answer = await fetchAnswer(key);
    let { board } = answer;
    let seenAt = clock.now();
    if (keep && (answer.offline || answer.failed)) {
      const kept = keep.read(key);
      board = kept?.board ?? null;
      seenAt = kept?.seenAt ?? null;
    } else if (keep) {
      keep.write(key, board, seenAt);
    }
    if (wanted() !== key) {
      // The player switched meanwhile (that board is asked for already), or the UTC day turned under the open
      // page: then the board wanted now is asked for.
      if (asking === key) await load();
      return;
    }
    shown = Object.freeze({ key, board, offline: answer.offline, failed: answer.failed, seenAt });
    shownAt = clock.now();
    onShown(shown);
  }

  const current = () => (shown.key !== null && shown.key === wanted() ? shown : null);

  /** Another board wanted, or the one shown not lately (a clock set back counts as not lately). */
  function stale() {
    const age = clock.now() - shownAt;
    return current() === null || age > REFRESH_MS || age < 0;
  }

  function forget() {
    shown = NOTHING;
    shownAt = Number.NEGATIVE_INFINITY;
  }

  return { load, current, stale, forget };
}
