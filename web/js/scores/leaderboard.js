// The daily board in the page: the nickname and the status of each scored daily (sent by score-sender.js), the day
// tabs (today, yesterday, an earlier day picked) and the board of the day shown (loaded by board-loader.js, drawn by
// leaderboard-view.js with board-view.js's tabs and rows, as the friends' boards), forget me. It lives in the menu, or in the result of a scored daily ("board-place").

import { previousDay } from "../../common/clock.js";
import { ENDPOINTS, submissionDates } from "../../common/contract.js";
import { checkName } from "../../common/names.js";
import { formatDate, t } from "../base/i18n.js";
import { createBoardLoader } from "./board-loader.js";
import { emitWatches } from "./board-view.js";
import { linkRequest } from "./friends-state.js";
import { createLeaderboardView } from "./leaderboard-view.js";
import { nameRefusalKey, statusOf, watchLocked } from "./records.js";
import { createScoreSender } from "./score-sender.js";

/** The name as it is stored and shown, or null when the board's rule (names.js, the server's too) refuses it. */
function acceptedName(text) {
  const checked = checkName(String(text ?? ""));
  return checked.ok ? checked.name : null;
}

/** Forget me's route (netlify/scores-api/handler.mjs): DELETE with the device's player id. */
export const FORGET_ENDPOINT = ENDPOINTS.player;

/**
 * panel: the menu's #leaderboard element; settingsStore (the nickname), historyStore (the daily played),
 * scoreStore (records, boards seen), playerStore (the player id): the page's stores; forgetPlayer(): forget me on
 * this device (every key tied to the player id); events: the app's emitter (the panel
 * follows the menu and the result, hears the language, finished dailies, scores settled elsewhere and the day's
 * turn; it emits "play-past-daily" {date}, "watch-entry" and "board-place"); ask: the page's confirmation ({title,
 * text, stay, leave}) → Promise<boolean> (true: go ahead); clock: the page's wall clock (web/common/clock.js); api:
 * the boards' API (board-api.js).
 */
export function createLeaderboard({
  panel,
  settingsStore,
  historyStore,
  scoreStore,
  playerStore,
  forgetPlayer,
  events,
  ask,
  clock,
  api,
}) {
  let day = 0; // 0: today, 1: yesterday, 2: the earlier day picked
  let earlier = null; // an earlier day (YYYY-MM-DD) whose board the player picked, or null
  let notice = null;

  const locked = (date) => watchLocked(date, { historyStore, scoreStore }, clock.today());
  const view = createLeaderboardView(panel, {
    onSubmit: submit,
    onNameInput: checkTyping,
    onSelectDay: selectDay,
    onForget: forgetMe,
    onPickEarlier: pickEarlier,
    onPlayPast: () => events.emit("play-past-daily", { date: dates()[2] }),
    watchLocked: locked,
  });

  /** Today and yesterday (the days open for scores), and the earlier day picked, if any. */
  const dates = () => {
    const open = submissionDates(clock.now());
    return earlier && earlier < open[1] ? [...open, earlier] : open;
  };
  const nickname = () => settingsStore.settings().nickname ?? "";

  const sender = createScoreSender({
    scoreStore,
    playerStore,
    clock,
    dates,
    onChange: () => render(),
    // A name the server refused: its reason beside the field, in view, and the field focused for another.
    onNameRefused: ({ error }) => {
      const { code, reason } = error;
      view.setNameError(t(code === "name_taken" ? "leaderboard.reason.name_taken" : nameRefusalKey(reason)));
      view.showNameError();
    },
    // A settled score changes the board: ask anew. Otherwise only a day not shown yet is asked for (the menu's
    // opening asks for it too: one request between them).
    onSent: ({ settled }) => (settled || !loader.current() ? loader.load({ fresh: settled }) : undefined),
  });

  // The board: fresh from the server, else the one last seen for that day (storage keeps it). Not before the page
  // shows it: the menu's opening asks (followPanels), once, when the engine is ready.
  const loader = createBoardLoader({
    wanted: () => dates()[day] ?? null,
    fetchAnswer: (date) => {
      const rec = sender.recordFor(date);
      return api.fetchDailyBoard(ENDPOINTS.scores, date, rec && rec.state !== "draft" ? rec.id : null);
    },
    clock,
    ready: () => events.state().panel !== "loading",
    keep: {
      read: (date) => scoreStore.keptBoard(date),
      write: (date, board, seenAt) => scoreStore.keepBoard(date, board, seenAt, dates()),
    },
    onShown: () => render(),
  });

  async function submit(text) {
    const name = acceptedName(text);
    if (!name) {
      view.setNameError(t(nameRefusalKey(checkName(String(text ?? "")).reason)));
      view.showNameError();
      return false;
    }
    view.setNameError(null);
    settingsStore.saveSettings({ nickname: name });
    view.setName(name, { force: true });
    const rec = sender.awaitingName();
    if (!rec) {
      // A daily already on the board keeps the name it was sent under: the new one counts from the next daily.
      const sent = dates()
        .map(sender.recordFor)
        .find((kept) => kept?.state === "sent" && kept.name !== name);
      notice = sent ? t("leaderboard.nameSavedLater", { name, old: sent.name }) : t("leaderboard.nameSaved", { name });
      render();
      return true;
    }
    notice = null;
    day = dates().indexOf(rec.date);
    await sender.queue(rec, name);
    return true;
  }

  function checkTyping(text) {
    notice = null;
    const checked = checkName(String(text ?? ""));
    const bad = String(text).trim() !== "" && !checked.ok;
    view.setNameError(bad ? t(nameRefusalKey(checked.reason)) : null);
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
    loader.load();
  }

  function selectDay(index) {
    if (index === day) return;
    day = index;
    notice = null;
    render();
    loader.load();
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
    // No network, or the server refused: nothing was forgotten, and the player is told so.
    const sent = await api.send("DELETE", FORGET_ENDPOINT, { player: playerStore.playerId() });
    const answer = sent.ok ? sent.body : null;
    view.setForgetBusy(false);
    if (!answer?.forgotten) {
      notice = t("forget.failed");
      render();
      return;
    }
    forgetPlayer();
    loader.forget();
    notice = t("forget.done", { count: answer.entries });
    panel.dataset.forgotten = "true";
    events.emit("player-forgotten", answer);
    render();
    await loader.load();
  }

  /** A status from records.js in the page's words. */
  function say({ key, params }) {
    if (!key) return "";
    const reason = params.reason ? t(params.reason.key, params.reason.params) : undefined;
    return t(key, reason === undefined ? params : { ...params, reason });
  }

  function statusFor(date, rec, shown) {
    return statusOf({
      rec,
      waiting: sender.awaitingName(),
      canPlay: date === dates()[0] && !historyStore.dailyRecord(date),
      you: shown?.board?.you ?? null,
      total: shown?.board?.total ?? null,
      sending: sender.isSending(),
      online: navigator.onLine !== false,
      lastFlush: sender.lastFlush(),
    });
  }

  function render() {
    if (day >= dates().length) day = 0; // the UTC day turned: the earlier day picked is yesterday now
    const date = dates()[day];
    const rec = sender.recordFor(date);
    const shown = loader.current();
    view.drawTabs(dates());
    view.selectTab(day);
    const dayBefore = previousDay(dates()[1]);
    view.setEarlier({ max: dayBefore, value: day === 2 ? date : "", playable: day === 2 });
    view.setSubmit({
      mode: sender.awaitingName() ? "send" : "save",
      busy: sender.isSending() && rec?.state === "queued",
    });
    const status = statusFor(date, rec, shown);
    view.setStatus(notice ?? say(status), notice ? "saved" : status.state);
    const queued = rec?.state === "queued" ? rec : null;
    let note = "";
    if (!shown) note = t("leaderboard.loading");
    else if (!shown.board) note = t("leaderboard.unavailable");
    view.drawBoard({ date: formatDate(date), board: shown?.board ?? null, queued, note });
    view.drawChart(shown && day === 0 ? shown.board : null); // the chart speaks of today
    view.setNote(shown ?? { offline: false, failed: false });
  }

  // ---- Where the panel is: in the result of a scored daily, otherwise in the menu (the page places it)

  function followPanels({ panel: shownPanel, previous }) {
    if (shownPanel === "menu" && previous.panel !== "menu") {
      events.emit("board-place", { where: "menu" });
      render();
      // A board shown for another day (the day turned) or not lately is asked for again.
      if (loader.stale()) loader.load();
    } else if (previous.panel === "result" && shownPanel !== "result") {
      events.emit("board-place", { where: "menu" });
    }
  }

  // ---- Entry points

  /** A scored daily is over: its record (and replay, JSON text) is kept, and sent if a name is known. */
  async function dailyFinished({ view: final, replay }) {
    const date = final.date;
    const rec = sender.keepFinished({ date, view: final, replay: JSON.parse(replay) });
    day = Math.max(0, dates().indexOf(date));
    notice = null;
    events.emit("board-place", { where: "result" }); // scrolls with the result, above its buttons
    const name = acceptedName(nickname());
    if (rec.state === "draft" && name) {
      await sender.queue(rec, name);
    } else {
      render();
      await loader.load();
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
    emitWatches(panel, events, locked);
    events.on("state", followPanels);
    events.on("language", () => {
      view.labels();
      render();
    });
    events.on("game-finished", (game) => {
      if (game.scored) dailyFinished(game).catch((error) => console.warn("scores:", error));
    });
    events.on("leaderboard-changed", () =>
      sender
        .reconcile()
        .then(render)
        .then(() => loader.load()),
    );
    // A new UTC day under the open page: the tabs name the new days and the board shown is the tab's new day.
    events.on("day-turned", () => {
      render();
      loader.load();
    });
    window.addEventListener("offline", () => {
      render();
      loader.load();
    });
    // On load: whatever waits in the outbox goes now.
    sender.start();
  }

  return { start };
}
