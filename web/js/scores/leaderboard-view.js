// Draws the daily board's panel: the name field, the submission status, the day tabs and the board (board-view.js's,
// as the friends' boards'), the earlier day's picker and the note when the board shown is not a fresh one.

import { TOP } from "../../common/contract.js";
import { element } from "../base/dom.js";
import { formatDateTime, t } from "../base/i18n.js";
import { boardRows, createBoardTable, createDayTabs } from "./board-view.js";
import { drawDistribution } from "./chart-view.js";

const BOARD_TESTIDS = Object.freeze({ row: "leaderboard-row", you: "leaderboard-you", watch: "leaderboard-watch" });

/**
 * Builds the panel's content once. handlers: onSubmit(nameText), onNameInput(nameText), onSelectDay(index),
 * onForget() (the "forget me" button), onPickEarlier(date): a past day picked (YYYY-MM-DD, or "" when cleared),
 * onPlayPast(): play the shown past daily again; watchLocked(date): whether that day's games may not be watched yet
 * (today's, before your daily). Returns the drawing functions; nothing here decides anything.
 */
export function createLeaderboardView(
  panel,
  {
    onSubmit,
    onNameInput,
    onSelectDay,
    onForget,
    onPickEarlier = () => {},
    onPlayPast = () => {},
    watchLocked = () => false,
  },
) {
  const ids = { title: "lb-title", name: "lb-name", help: "lb-name-help", error: "lb-name-error", board: "lb-board" };

  const title = element("h3", { id: ids.title });
  const nameInput = element("input", {
    id: ids.name,
    type: "text",
    testid: "name-input",
    autocomplete: "nickname",
    spellcheck: "false",
    maxlength: "40",
    enterkeyhint: "send",
    "aria-describedby": `${ids.help} ${ids.error}`,
  });
  const submit = element("button", { type: "button", className: "lb-submit", testid: "submit-score" });
  const label = element("label", { for: ids.name });
  const help = element("p", { id: ids.help, className: "lb-help" });
  const error = element("p", { id: ids.error, className: "lb-error", role: "alert", testid: "name-error" });
  const nameGroup = element("div", { className: "lb-name" }, [
    label,
    element("div", { className: "lb-name-row" }, [nameInput, submit]),
    help,
    error,
  ]);

  const status = element("p", {
    className: "lb-status",
    role: "status",
    "aria-live": "polite",
    testid: "leaderboard-status",
  });

  // Where you stand: the day's scores as a chart, under the status, once the board says them.
  const chart = element("figure", { id: "lb-distribution", className: "chart", testid: "distribution-chart" });
  chart.hidden = true;

  // An earlier day's board (a daily no longer open for scores), and its deal to play again as practice.
  const earlierInput = element("input", { type: "date", id: "lb-earlier", testid: "leaderboard-earlier" });
  const earlierLabel = element("label", { for: "lb-earlier" });
  const playPast = element("button", { type: "button", className: "lb-play-past", testid: "leaderboard-play-past" });
  playPast.hidden = true;
  const earlier = element("div", { className: "lb-earlier" }, [earlierLabel, earlierInput, playPast]);
  earlierInput.addEventListener("change", () => onPickEarlier(earlierInput.value));
  playPast.addEventListener("click", () => onPlayPast());

  const board = createBoardTable({ id: ids.board });
  const tabs = createDayTabs({
    idPrefix: "lb",
    testid: "leaderboard-tab",
    panel: board.element,
    onSelect: (index) => onSelectDay(index),
    otherLabel: "lb-earlier",
  });

  // Forget me: this device's entries and name off every board (the page asks first).
  const forget = element("button", { type: "button", className: "lb-forget", testid: "forget-me" });

  panel.setAttribute("aria-labelledby", ids.title);
  panel.append(title, nameGroup, status, chart, tabs.element, earlier, board.element, forget);

  forget.addEventListener("click", () => onForget());
  submit.addEventListener("click", () => onSubmit(nameInput.value));
  nameInput.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault(); // the panel sits inside the menu's form: Enter must not deal a game
    event.stopPropagation();
    onSubmit(nameInput.value);
  });
  nameInput.addEventListener("input", () => onNameInput(nameInput.value));

  /** Fixed texts, again after a language change. */
  function labels() {
    title.textContent = t("leaderboard.title");
    label.textContent = t("leaderboard.nameLabel");
    help.textContent = t("leaderboard.nameHint");
    forget.textContent = t("leaderboard.forget");
    earlierLabel.textContent = t("leaderboard.earlier");
    playPast.textContent = t("leaderboard.playPast");
    tabs.labels();
    board.labels();
  }

  /** Fills the field, unless the player is typing in it (force: after the name was accepted). */
  function setName(text, { force = false } = {}) {
    if (force || document.activeElement !== nameInput) nameInput.value = text ?? "";
  }

  function setNameError(text) {
    error.textContent = text ?? "";
    error.hidden = !text;
    if (text) nameInput.setAttribute("aria-invalid", "true");
    else nameInput.removeAttribute("aria-invalid");
  }

  /** mode "send" (a score is waiting for a name) or "save" (only the name to remember). */
  function setSubmit({ mode, busy = false }) {
    submit.textContent = t(mode === "send" ? "leaderboard.send" : "leaderboard.saveName");
    submit.dataset.mode = mode;
    submit.disabled = busy;
  }

  function setForgetBusy(busy) {
    forget.disabled = busy;
  }

  function setStatus(text, state = "") {
    const newlyRefused = state === "refused" && status.dataset.state !== "refused";
    status.textContent = text ?? "";
    status.dataset.state = state;
    status.hidden = !text;
    // A refusal (of the name, of the score) is read where it is: in view, wherever the panel is scrolled.
    if (newlyRefused && status.offsetParent !== null) status.scrollIntoView({ block: "nearest" });
  }

  /** The earlier day's picker: the last day it offers (YYYY-MM-DD), the one shown ("" for none), and whether that
   * day's deal may be played again now. */
  function setEarlier({ max, value, playable }) {
    earlierInput.max = max;
    if (document.activeElement !== earlierInput) earlierInput.value = value;
    playPast.hidden = !playable;
  }

  /**
   * board: the server's answer ({date, entries, total, you}) or null; queued: your own submission not sent yet
   * ({name, score, duration_ms, wrong_slaps}) or null; note: the text shown when there are no rows.
   */
  function drawBoard({ date, board: answer, queued = null, note = "" }) {
    const locked = Boolean(date && watchLocked(answer?.date ?? date));
    const you = answer?.you ?? null;
    const rows = boardRows(answer?.entries ?? [], { you, queued, locked, testids: BOARD_TESTIDS });
    board.draw({
      rows,
      date: answer?.date ?? null, // the day whose records the rows' Watch fetches
      caption: answer ? t("leaderboard.caption", { count: answer.total ?? 0, date, top: TOP }) : date,
      note: note || t("leaderboard.empty"),
    });
  }

  /** The day's score distribution from the board's answer, your bar marked; hidden for null or no distribution. */
  function drawChart(answer) {
    drawDistribution(chart, answer);
  }

  function focusName() {
    nameInput.focus();
  }

  /** The name's refusal brought into view (on a phone it may be below the fold) and the field focused. */
  function showNameError() {
    nameInput.focus({ preventScroll: true });
    error.scrollIntoView({ block: "center" });
  }

  /**
   * The note at the top of the panel: offline (no network), failed (the network is there but the server did not
   * answer well), or neither (the note goes); seenAt: when the board shown was fetched (null: none kept).
   */
  function setNote({ offline, failed, seenAt }) {
    let note = panel.querySelector(":scope > .offline-note");
    if (!offline && !failed) {
      note?.remove();
      return;
    }
    if (!note) {
      note = element("p", { className: "offline-note", testid: "leaderboard-offline", role: "status" });
      panel.prepend(note);
    }
    note.dataset.reason = offline ? "offline" : "failed";
    const key = offline ? "offline.leaderboard" : "offline.leaderboardFailed";
    note.textContent = seenAt ? t(key, { time: formatDateTime(seenAt) }) : t(`${key}None`);
  }

  labels();
  setNameError(null);
  return {
    labels,
    setName,
    setNameError,
    setSubmit,
    setStatus,
    setForgetBusy,
    selectTab: tabs.select,
    drawTabs: tabs.draw,
    setEarlier,
    drawBoard,
    drawChart,
    setNote,
    focusName,
    showNameError,
  };
}
