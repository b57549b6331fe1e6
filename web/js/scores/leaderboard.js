// Daily scores on the page: the nickname, sending each scored daily result through the outbox, and the
// leaderboard panel (in the menu, or in the result of a scored daily).
//
// Each daily result gets one submission id, made here and stored with it: every retry sends the same id,
// so the server keeps one entry per game whatever happens to the network.

import { previousDay } from "../../common/clock.js";
import { checkName } from "../../common/names.js";
import { answerFor, ENDPOINT, enqueue, flush, pending, SYNC_TAG } from "../../common/outbox.js";
import { retryDelay } from "../../common/retry-policy.js";
import { formatDate, t } from "../base/i18n.js";
import { linkRequest } from "./friends-state.js";
import { createLeaderboardView } from "./leaderboard-view.js";
import {
  awaitsName,
  draftRecord,
  NAME_REFUSALS,
  nameRefusalKey,
  recordAfter,
  statusOf,
  submissionOf,
} from "./records.js";

const REFRESH_MS = 5_000;

/**
 * Whether a board day's games may not be watched yet: today's daily, before this device has played it (its start
 * counts, and so does a score of that day kept for the board). Once the day is over, or played, they are open.
 * today: the UTC date now (the page's clock).
 */
export function watchLocked(date, storage, today) {
  return date === today && !storage.dailyRecord(date) && !storage.scoreRecords([date])[date];
}

/** The name as it is stored and shown, or null when the board's rule (names.js, the server's too) refuses it. */
function acceptedName(text) {
  const checked = checkName(String(text ?? ""));
  return checked.ok ? checked.name : null;
}

/** 128 random bits, base64url without padding: 22 characters. */
export function newSubmissionId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

async function requestBackgroundSync() {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    await registration?.sync?.register(SYNC_TAG);
  } catch {
    // No Background Sync here (or not allowed): the page sends on load and on "online" instead.
  }
}

/** Forget me's route (netlify/functions/scores/handler.mjs): DELETE with the device's player id. */
export const FORGET_ENDPOINT = `${ENDPOINT}/player`;

/**
 * panel: the menu's #leaderboard element; storage: the page's storage; events: the app's emitter (the panel
 * follows the menu and the result, hears the language, finished dailies and scores settled elsewhere; it emits
 * "play-past-daily" {date} when the player asks to play an earlier day's daily again); ask: the page's
 * confirmation ({title, text, stay, leave}) → Promise<boolean> (true: go ahead); clock: the page's wall clock
 * (web/common/clock.js); api: the boards' API (board-api.js). The tabs follow the day's turn ("day-turned").
 */
export function createLeaderboard({ panel, storage, events, ask, clock, api }) {
  const home = { parent: panel.parentElement, next: panel.nextSibling };
  let day = 0; // 0: today, 1: yesterday, 2: the earlier day picked
  let earlier = null; // an earlier day (YYYY-MM-DD) whose board the player picked, or null
  let shown = { date: null, board: null, offline: false, failed: false, seenAt: null };
  let shownAt = 0;
  let asking = null; // the date of the latest board request
  let boardAsked = null; // {date, promise}: the board request on its way
  let sending = false;
  let lastFlush = null;
  let notice = null;
  let retryIndex = 0;
  let retryTimer = null;

  const view = createLeaderboardView(panel, {
    onSubmit: submit,
    onNameInput: checkTyping,
    onSelectDay: selectDay,
    onForget: forgetMe,
    onPickEarlier: pickEarlier,
    onPlayPast: () => events.emit("play-past-daily", { date: dates()[2] }),
    watchLocked: (date) => watchLocked(date, storage, clock.today()),
  });

  /** Today and yesterday (the days open for scores), and the earlier day picked, if any. */
  const dates = () => {
    const today = clock.today();
    const open = [today, previousDay(today)];
    return earlier && earlier < open[1] ? [...open, earlier] : open;
  };
  const nickname = () => storage.settings().nickname ?? "";

  // ---- Records: one per daily date (records.js: draft -> queued -> sent or refused)

  const records = () => storage.scoreRecords(dates());
  const recordFor = (date) => records()[date] ?? null;
  const saveRecord = (rec) => storage.saveScoreRecord(rec, dates());

  /** The newest result waiting for a name: never sent, or refused for its name. */
  function awaitingName() {
    return dates().map(recordFor).find(awaitsName) ?? null;
  }

  /** Brings the records up to date with the outbox and the answers (which the service worker may have got). */
  async function reconcile() {
    const waiting = new Set((await pending()).map((submission) => submission.id));
    for (const rec of Object.values(records())) {
      if (rec.state !== "queued" || waiting.has(rec.id)) continue;
      const answer = await answerFor(rec.id);
      if (answer && answer.answeredAt >= (rec.queuedAt ?? 0)) {
        saveRecord(recordAfter(rec, { type: "answer", answer }));
      } else if (!answer && rec.replay) {
        await enqueue(submissionOf(rec), { clock }); // lost from the outbox (cleared storage, a crash): same id again
      }
    }
  }

  // ---- Sending

  async function queue(draft, name) {
    const rec = recordAfter(draft, { type: "queue", name, at: clock.now(), player: storage.playerId() });
    saveRecord(rec);
    await enqueue(submissionOf(rec), { clock });
    requestBackgroundSync();
    await sendNow();
  }

  /** Sends again later: when the server asked (Retry-After), and never sooner than the backoff's next step. */
  function scheduleRetry(retryAt = null) {
    clearTimeout(retryTimer);
    if (navigator.onLine === false) return; // the "online" event sends
    retryTimer = setTimeout(sendNow, retryDelay(retryIndex, retryAt, clock.now()));
    retryIndex += 1;
  }

  async function sendNow() {
    clearTimeout(retryTimer);
    sending = true;
    render();
    let result;
    try {
      result = await flush(undefined, { clock });
    } catch (error) {
      console.warn("scores: the outbox could not be sent", error);
      result = { settled: [], kept: 1, offline: false };
    }
    lastFlush = result;
    sending = false;
    const refusedBefore = new Set(
      Object.values(records())
        .filter(awaitsName)
        .map((rec) => rec.id),
    );
    await reconcile();
    // A name the server refused: its reason beside the field, in view, and the field focused for another.
    const refusedName = Object.values(records()).find(
      (rec) => rec.state === "refused" && NAME_REFUSALS.has(rec.error?.code) && !refusedBefore.has(rec.id),
    );
    if (refusedName) {
      const { code, reason } = refusedName.error;
      view.setNameError(t(code === "name_taken" ? "leaderboard.reason.name_taken" : nameRefusalKey(reason)));
      view.showNameError();
    }
    if (result.kept > 0) {
      scheduleRetry(result.retryAt ?? null);
      requestBackgroundSync();
    } else {
      retryIndex = 0;
    }
    render();
    // A settled score changes the board: ask anew. Otherwise only a day not shown yet is asked for (the menu's
    // opening asks for it too: one request between them).
    const settled = (result.settled?.length ?? 0) > 0;
    if (settled || shown.date !== dates()[day]) await loadBoard({ fresh: settled });
  }

  async function submit(text) {
    const name = acceptedName(text);
    if (!name) {
      view.setNameError(t(nameRefusalKey(checkName(String(text ?? "")).reason)));
      view.showNameError();
      return false;
    }
    view.setNameError(null);
    storage.saveSettings({ nickname: name });
    view.setName(name, { force: true });
    const rec = awaitingName();
    if (!rec) {
      // A daily already on the board keeps the name it was sent under: the new one counts from the next daily.
      const sent = dates()
        .map(recordFor)
        .find((kept) => kept?.state === "sent" && kept.name !== name);
      notice = sent ? t("leaderboard.nameSavedLater", { name, old: sent.name }) : t("leaderboard.nameSaved", { name });
      render();
      return true;
    }
    notice = null;
    day = dates().indexOf(rec.date);
    await queue(rec, name);
    return true;
  }

  function checkTyping(text) {
    notice = null;
    const checked = checkName(String(text ?? ""));
    const bad = String(text).trim() !== "" && !checked.ok;
    view.setNameError(bad ? t(nameRefusalKey(checked.reason)) : null);
  }

  // ---- The board: fresh from the server, else the one last seen for that day (storage keeps it)

  /**
   * Asks for the shown day's board. A request for that day already on its way is answered once for both callers
   * (the menu opening and the outbox's flush may ask within a few ms); fresh: ask anew all
   * the same (a score was just settled, which the board on its way may predate).
   */
  function loadBoard({ fresh = false } = {}) {
    // Not before the page shows it: the menu's opening asks (followPanels), once, when the engine is ready.
    if (events.state().panel === "loading") return Promise.resolve();
    const date = dates()[day];
    if (!fresh && boardAsked?.date === date) return boardAsked.promise;
    const promise = askBoard(date).finally(() => {
      if (boardAsked?.promise === promise) boardAsked = null;
    });
    boardAsked = { date, promise };
    return promise;
  }

  async function askBoard(date) {
    asking = date;
    const rec = recordFor(date);
    const answer = await api.fetchDailyBoard(ENDPOINT, date, rec && rec.state !== "draft" ? rec.id : null);
    let seenAt = clock.now();
    let { board } = answer;
    if (answer.offline || answer.failed) {
      const kept = storage.keptBoard(date);
      board = kept?.board ?? null;
      seenAt = kept?.seenAt ?? null;
    } else {
      storage.keepBoard(date, board, seenAt, dates());
    }
    if (dates()[day] !== date) {
      // The player switched days meanwhile (that day's board is asked for already), or the UTC day turned under
      // the open tab: then the day it now stands for is asked for.
      if (asking === date) await loadBoard();
      return;
    }
    shown = { date, board, offline: answer.offline, failed: answer.failed, seenAt };
    shownAt = clock.now();
    render();
  }

  /** A past day picked in the panel: its board is shown (a day still open for scores is its tab). */
  function pickEarlier(date) {
    const open = dates().slice(0, 2);
    if (open.includes(date)) return selectDay(open.indexOf(date));
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || date >= open[1]) {
      earlier = null;
      if (day > 1) selectDay(0);
      else render();
      return;
    }
    earlier = date;
    day = 2;
    notice = null;
    render();
    loadBoard();
  }

  function selectDay(index) {
    if (index === day) return;
    day = index;
    notice = null;
    render();
    loadBoard();
  }

  // ---- Forget me: the server removes this device's entries and name from every board; the device forgets too

  async function forgetMe() {
    const sure = await ask({
      title: t("forget.title"),
      text: t("forget.text"),
      stay: t("forget.keep"),
      leave: t("forget.confirm"),
    });
    if (!sure) return;
    view.setForgetBusy(true);
    let answer = null;
    try {
      const response = await fetch(FORGET_ENDPOINT, {
        method: "DELETE",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ player: storage.playerId() }),
        cache: "no-store",
      });
      if (response.ok) answer = await response.json();
    } catch {
      // No network: nothing was forgotten, and the player is told so.
    }
    view.setForgetBusy(false);
    if (!answer?.forgotten) {
      notice = t("forget.failed");
      render();
      return;
    }
    storage.forgetPlayer();
    shown = { date: null, board: null, offline: false, failed: false, seenAt: null };
    notice = t("forget.done", { count: answer.entries });
    panel.dataset.forgotten = "true";
    events.emit("player-forgotten", answer);
    render();
    await loadBoard();
  }

  // ---- Drawing

  /** A status from records.js in the page's words. */
  function say({ key, params }) {
    if (!key) return "";
    const reason = params.reason ? t(params.reason.key, params.reason.params) : undefined;
    return t(key, reason === undefined ? params : { ...params, reason });
  }

  function statusFor(date, rec) {
    const sameDay = shown.date === date;
    return statusOf({
      rec,
      waiting: awaitingName(),
      canPlay: date === dates()[0] && !storage.dailyRecord(date),
      you: sameDay ? (shown.board?.you ?? null) : null,
      total: sameDay ? (shown.board?.total ?? null) : null,
      sending,
      online: navigator.onLine !== false,
      lastFlush,
    });
  }

  function render() {
    if (day >= dates().length) day = 0; // the UTC day turned: the earlier day picked is yesterday now
    const date = dates()[day];
    const rec = recordFor(date);
    view.drawTabs(dates());
    view.selectTab(day);
    const dayBefore = previousDay(dates()[1]);
    view.setEarlier({ max: dayBefore, value: day === 2 ? date : "", playable: day === 2 });
    view.setSubmit({ mode: awaitingName() ? "send" : "save", busy: sending && rec?.state === "queued" });
    const status = statusFor(date, rec);
    view.setStatus(notice ?? say(status), notice ? "saved" : status.state);
    const sameDay = shown.date === date;
    const queued = rec?.state === "queued" ? rec : null;
    let note = "";
    if (!sameDay) note = t("leaderboard.loading");
    else if (!shown.board) note = t("leaderboard.unavailable");
    view.drawBoard({ date: formatDate(date), board: sameDay ? shown.board : null, queued, note });
    view.drawChart(sameDay && day === 0 ? shown.board : null); // the chart speaks of today
    view.setNote(sameDay ? shown : { offline: false, failed: false });
  }

  // ---- Where the panel is: in the result of a scored daily, otherwise in the menu

  function showInResult() {
    document.getElementById("result-body")?.append(panel); // scrolls with the result, above its buttons
  }

  function goHome() {
    if (panel.parentElement === home.parent) return;
    const next = home.next?.parentNode === home.parent ? home.next : null;
    home.parent.insertBefore(panel, next);
  }

  function followPanels({ panel: shownPanel, previous }) {
    if (shownPanel === "menu" && previous.panel !== "menu") {
      goHome();
      render();
      // A board shown for another day (the day turned) or not lately is asked for again. A clock set back (a
      // device's, a test's) counts as not lately.
      const age = clock.now() - shownAt;
      if (shown.date !== dates()[day] || age > REFRESH_MS || age < 0) loadBoard();
    } else if (previous.panel === "result" && shownPanel !== "result") {
      goHome();
    }
  }

  // ---- Entry points

  /** A scored daily is over: its record (and replay, JSON text) is kept, and sent if a name is known. */
  async function dailyFinished({ view: final, replay }) {
    const date = final.date;
    let rec = recordFor(date);
    if (!rec) {
      rec = draftRecord({ date, id: newSubmissionId(), view: final, replay: JSON.parse(replay), now: clock.now() });
      saveRecord(rec);
    }
    day = Math.max(0, dates().indexOf(date));
    notice = null;
    showInResult();
    const name = acceptedName(nickname());
    if (rec.state === "draft" && name) {
      await queue(rec, name);
    } else {
      render();
      await loadBoard();
    }
  }

  /**
   * Builds the panel, sends whatever waits in the outbox and listens for the network coming back. A daily's
   * share link (?board=<date>) opens the board of that day, when it is today or yesterday.
   */
  function start(search = location.search) {
    panel.hidden = false;
    const asked = linkRequest(search).board;
    if (asked && dates().includes(asked)) {
      day = dates().indexOf(asked);
      panel.scrollIntoView({ block: "start" });
    }
    view.setName(nickname(), { force: true });
    render();
    events.on("state", followPanels);
    events.on("language", () => {
      view.labels();
      render();
    });
    events.on("game-finished", (game) => {
      if (game.scored) dailyFinished(game).catch((error) => console.warn("scores:", error));
    });
    events.on("leaderboard-changed", () => reconcile().then(render).then(loadBoard));
    // A new UTC day under the open page: the tabs name the new days and the board shown is the tab's new day.
    events.on("day-turned", () => {
      render();
      loadBoard();
    });
    window.addEventListener("online", () => sendNow());
    window.addEventListener("offline", () => {
      render();
      loadBoard();
    });
    // On load: whatever waits in the outbox goes now.
    reconcile()
      .then(sendNow)
      .catch((error) => console.warn("scores:", error));
  }

  return { start };
}
