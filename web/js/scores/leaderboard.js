// Daily scores on the page: the nickname, sending each scored daily result through the outbox, and the
// leaderboard panel (in the menu, or in the result of a scored daily).
//
// Each daily result gets one submission id, made here and stored with it: every retry sends the same id,
// so the server keeps one entry per game whatever happens to the network.

import { previousDay, todayUtc } from "../app/deals.js";
import { formatDate, t } from "../app/i18n.js";
import { fetchBoard } from "./board-api.js";
import { createLeaderboardView } from "./leaderboard-view.js";
import { checkName } from "./names.js";
import { answerFor, ENDPOINT, enqueue, flush, pending, SYNC_TAG } from "./outbox.js";

const RETRY_MS = [5_000, 15_000, 30_000, 60_000];
const REFRESH_MS = 5_000;
const REASONS = new Set([
  "invalid_name",
  "name_taken",
  "id_conflict",
  "duplicate_record",
  "date_out_of_window",
  "implausible_play",
]);
// Refusals of the name alone: the score waits for another name, and goes with the same id.
const NAME_REFUSALS = new Set(["invalid_name", "name_taken"]);

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

const submissionOf = (rec) => ({ id: rec.id, name: rec.name, date: rec.date, score: rec.score, replay: rec.replay });

async function requestBackgroundSync() {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    await registration?.sync?.register(SYNC_TAG);
  } catch {
    // No Background Sync here (or not allowed): the page sends on load and on "online" instead.
  }
}

/**
 * panel: the menu's #leaderboard element; storage: the page's storage; events: the app's emitter (the panel
 * follows the menu and the result, hears the language, finished dailies and scores settled elsewhere).
 */
export function createLeaderboard({ panel, storage, events }) {
  const home = { parent: panel.parentElement, next: panel.nextSibling };
  let day = 0; // 0: today, 1: yesterday
  let shown = { date: null, board: null, offline: false, failed: false, seenAt: null };
  let shownAt = 0;
  let sending = false;
  let lastFlush = null;
  let notice = null;
  let retryIndex = 0;
  let retryTimer = null;

  const view = createLeaderboardView(panel, { onSubmit: submit, onNameInput: checkTyping, onSelectDay: selectDay });

  const dates = () => {
    const today = todayUtc();
    return [today, previousDay(today)];
  };
  const nickname = () => storage.settings().nickname ?? "";

  // ---- Records: one per daily date, {date, id, score, won, duration_ms, wrong_slaps, replay, state, ...};
  // state: "draft" (no name yet), "queued" (in the outbox), "sent" (2xx), "refused" (4xx, with error).

  const records = () => storage.scoreRecords(dates());
  const recordFor = (date) => records()[date] ?? null;
  const saveRecord = (rec) => storage.saveScoreRecord(rec, dates());

  /** The newest result waiting for a name: never sent, or refused for its name. */
  function awaitingName() {
    const waits = (rec) =>
      rec && (rec.state === "draft" || (rec.state === "refused" && NAME_REFUSALS.has(rec.error?.code)));
    return dates().map(recordFor).find(waits) ?? null;
  }

  function settle(rec, answer) {
    if (answer.ok) {
      const body = answer.body ?? {};
      Object.assign(rec, {
        state: "sent",
        name: body.name ?? rec.name,
        rank: body.rank ?? null,
        total: body.total ?? null,
      });
      delete rec.replay;
    } else {
      const body = answer.body ?? {};
      Object.assign(rec, {
        state: "refused",
        error: { status: answer.status, code: body.error ?? "", message: body.message ?? "" },
      });
    }
  }

  /** Brings the records up to date with the outbox and the answers (which the service worker may have got). */
  async function reconcile() {
    const waiting = new Set((await pending()).map((submission) => submission.id));
    for (const rec of Object.values(records())) {
      if (rec.state !== "queued" || waiting.has(rec.id)) continue;
      const answer = await answerFor(rec.id);
      if (answer && answer.answeredAt >= (rec.queuedAt ?? 0)) {
        settle(rec, answer);
        saveRecord(rec);
      } else if (!answer && rec.replay) {
        await enqueue(submissionOf(rec)); // lost from the outbox (cleared storage, a crash): same id again
      }
    }
  }

  // ---- Sending

  async function queue(rec, name) {
    Object.assign(rec, { name, state: "queued", queuedAt: Date.now(), error: null });
    saveRecord(rec);
    await enqueue(submissionOf(rec));
    requestBackgroundSync();
    await sendNow();
  }

  /** Sends again later: when the server asked (Retry-After), and never sooner than the backoff's next step. */
  function scheduleRetry(retryAt = null) {
    clearTimeout(retryTimer);
    if (navigator.onLine === false) return; // the "online" event sends
    const backoff = RETRY_MS[Math.min(retryIndex, RETRY_MS.length - 1)];
    const asked = retryAt === null ? 0 : retryAt - Date.now();
    retryTimer = setTimeout(sendNow, Math.max(backoff, asked));
    retryIndex += 1;
  }

  async function sendNow() {
    clearTimeout(retryTimer);
    sending = true;
    render();
    let result;
    try {
      result = await flush();
    } catch (error) {
      console.warn("scores: the outbox could not be sent", error);
      result = { settled: [], kept: 1, offline: false };
    }
    lastFlush = result;
    sending = false;
    await reconcile();
    if (result.kept > 0) {
      scheduleRetry(result.retryAt ?? null);
      requestBackgroundSync();
    } else {
      retryIndex = 0;
    }
    render();
    await loadBoard();
  }

  async function submit(text) {
    const name = acceptedName(text);
    if (!name) {
      view.setNameError(t(String(text ?? "").trim() ? "leaderboard.nameInvalid" : "leaderboard.nameEmpty"));
      view.focusName();
      return false;
    }
    view.setNameError(null);
    storage.saveSettings({ nickname: name });
    view.setName(name, { force: true });
    const rec = awaitingName();
    if (!rec) {
      notice = t("leaderboard.nameSaved", { name });
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
    const bad = String(text).trim() !== "" && acceptedName(text) === null;
    view.setNameError(bad ? t("leaderboard.nameInvalid") : null);
  }

  // ---- The board: fresh from the server, else the one last seen for that day (storage keeps it)

  async function loadBoard() {
    const date = dates()[day];
    const rec = recordFor(date);
    const params = new URLSearchParams({ date });
    if (rec && rec.state !== "draft") params.set("id", rec.id);
    const answer = await fetchBoard(`${ENDPOINT}?${params}`);
    let seenAt = Date.now();
    let { board } = answer;
    if (answer.offline || answer.failed) {
      const kept = storage.keptBoard(date);
      board = kept?.board ?? null;
      seenAt = kept?.seenAt ?? null;
    } else {
      storage.keepBoard(date, board, seenAt, dates());
    }
    if (dates()[day] !== date) return; // the player switched days meanwhile
    shown = { date, board, offline: answer.offline, failed: answer.failed, seenAt };
    shownAt = Date.now();
    render();
  }

  function selectDay(index) {
    if (index === day) return;
    day = index;
    notice = null;
    render();
    loadBoard();
  }

  // ---- Drawing

  function reasonOf(error) {
    const code = error?.code ?? "";
    if (REASONS.has(code)) return t(`leaderboard.reason.${code}`);
    // Every other 422 is the score judge's refusal (ewar/judge.py's codes, not listed again here).
    if (error?.status === 422) return t("leaderboard.reason.unverified", { code });
    return t("leaderboard.reason.other", { message: error?.message || `HTTP ${error?.status ?? "?"}` });
  }

  function sentStatus(rec, you) {
    const rank = you?.rank ?? rec.rank;
    const total = (shown.date === rec.date ? shown.board?.total : null) ?? rec.total;
    return rank && total !== null && total !== undefined
      ? [t("leaderboard.status.sent", { score: rec.score, rank, total }), "sent"]
      : [t("leaderboard.status.sentNoRank", { score: rec.score }), "sent"];
  }

  function statusOf(date, rec) {
    const you = shown.date === date ? (shown.board?.you ?? null) : null;
    if (!rec) {
      const waiting = awaitingName();
      if (waiting) return [t("leaderboard.status.draft", { score: waiting.score }), "draft"];
      if (date === dates()[0] && !storage.dailyRecord(date)) return [t("leaderboard.status.play"), ""];
      return ["", ""];
    }
    const score = rec.score;
    switch (rec.state) {
      case "draft":
        return [t("leaderboard.status.draft", { score }), "draft"];
      case "queued":
        if (you) return sentStatus(rec, you);
        if (sending && navigator.onLine !== false) return [t("leaderboard.status.sending", { score }), "sending"];
        if (navigator.onLine !== false && lastFlush && !lastFlush.offline) {
          return [t("leaderboard.status.retrying", { score }), "queued"];
        }
        return [t("leaderboard.status.queued", { score }), "queued"];
      case "sent":
        return sentStatus(rec, you);
      case "refused":
        return [t("leaderboard.status.refused", { reason: reasonOf(rec.error) }), "refused"];
      default:
        return ["", ""];
    }
  }

  function render() {
    const date = dates()[day];
    const rec = recordFor(date);
    view.drawTabs(dates());
    view.selectTab(day);
    view.setSubmit({ mode: awaitingName() ? "send" : "save", busy: sending && rec?.state === "queued" });
    const [text, state] = statusOf(date, rec);
    view.setStatus(notice ?? text, notice ? "saved" : state);
    const sameDay = shown.date === date;
    const queued = rec?.state === "queued" ? rec : null;
    let note = "";
    if (!sameDay) note = t("leaderboard.loading");
    else if (!shown.board) note = t("leaderboard.unavailable");
    view.drawBoard({ date: formatDate(date), board: sameDay ? shown.board : null, queued, note });
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
      if (Date.now() - shownAt > REFRESH_MS) loadBoard();
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
      rec = {
        date,
        id: newSubmissionId(),
        score: final.result.score,
        won: final.result.won,
        duration_ms: final.result.duration_ms,
        wrong_slaps: final.wrong_slaps,
        replay: JSON.parse(replay),
        state: "draft",
        finishedAt: Date.now(),
      };
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

  /** Builds the panel, sends whatever waits in the outbox and listens for the network coming back. */
  function start() {
    panel.hidden = false;
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
