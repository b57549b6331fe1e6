// Draws the leaderboard panel: the name field, the submission status, the day tabs, the board table (names as
// text only) and the note when the board shown is not a fresh one.

import { TOP } from "../../common/contract.js";
import { element } from "../base/dom.js";
import { formatClock, formatDateTime, formatDayMonth, formatNumber, t } from "../base/i18n.js";
import { drawDistribution } from "./chart-view.js";

const BOARD_TESTIDS = Object.freeze({ row: "leaderboard-row", you: "leaderboard-you", watch: "leaderboard-watch" });

function durationAttribute(ms) {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  return `PT${Math.floor(seconds / 60)}M${seconds % 60}S`;
}

/**
 * A board's row (the daily board's and a friends' board's): rank, name (text only) with "you", "waiting" and Watch
 * as they apply, score with won or lost, time and wrong slaps. you: the player's own entry; queued: not sent yet;
 * locked: today's games, not to be watched before your own daily (the button says when they can be);
 * testids: the test ids of a row, your row and its Watch button.
 */
export function boardRow(entry, { you = false, queued = false, locked = false, testids = BOARD_TESTIDS } = {}) {
  const name = element("span", { className: "lb-name-text", text: entry.name });
  const nameCell = element("th", { scope: "row", className: "lb-col-name" }, [name]);
  if (you) nameCell.append(" ", element("span", { className: "lb-badge", text: t("leaderboard.you") }));
  if (queued)
    nameCell.append(
      " ",
      element("span", { className: "lb-badge lb-badge-waiting", text: t("leaderboard.waitingBadge") }),
    );
  if (Number.isInteger(entry.entry) && !queued) {
    // Today's games are no rehearsal of today's daily: the button says when they can be watched.
    const label = locked ? t("watch.lockedTodayLabel") : t("watch.boardLabel", { name: entry.name });
    const watch = element("button", { type: "button", className: "lb-watch", testid: testids.watch });
    watch.dataset.entry = String(entry.entry);
    watch.textContent = t(locked ? "watch.lockedToday" : "watch.board");
    if (locked) watch.setAttribute("aria-disabled", "true");
    watch.setAttribute("aria-label", label);
    watch.title = label;
    nameCell.append(" ", watch);
  }
  const time = element("time", {
    datetime: durationAttribute(entry.duration_ms),
    text: formatClock(entry.duration_ms), // as the table's clock and the result write it
  });
  const attributes = { testid: you ? testids.you : testids.row, "data-won": String(entry.won) };
  if (entry.rank) attributes["data-rank"] = String(entry.rank);
  const tr = element("tr", attributes, [
    element("td", { className: "lb-col-rank", text: entry.rank ? formatNumber(entry.rank) : "–" }),
    nameCell,
    element("td", { className: "lb-col-score" }, [
      formatNumber(entry.score),
      " ",
      element("span", {
        className: `lb-outcome ${entry.won ? "won" : "lost"}`,
        text: t(entry.won ? "leaderboard.won" : "leaderboard.lost"),
      }),
    ]),
    element("td", { className: "lb-col-time" }, [time]),
    element("td", { className: "lb-col-wrong", text: formatNumber(entry.wrong_slaps) }),
  ]);
  if (you) {
    tr.classList.add("you");
    tr.setAttribute("aria-current", "true");
    tr.dataset.state = queued ? "queued" : "sent";
  }
  return tr;
}

/** A board's column heads (the daily board's and a friends' board's), in the page's words. */
export function columnHeads() {
  return ["rank", "name", "score", "time", "wrong"].map((key) =>
    element("th", { scope: "col", className: `lb-col-${key}`, text: t(`leaderboard.column.${key}`) }),
  );
}

/** A day tab's words: "Today · Dec 1" (index 0) or "Yesterday · Nov 30" (1); the day alone while its date is unknown. */
export function dayTabText(index, date) {
  const day = t(index === 0 ? "leaderboard.today" : "leaderboard.yesterday");
  return date ? t("leaderboard.tab", { day, date: formatDayMonth(date) }) : day;
}

/**
 * Clicks on a row's Watch under `root` (a board's panel) become "watch-entry" {date, entry, own} on the app's
 * `events`: the day from the rows' [data-date], your own row's game told as yours. A day whose games are locked
 * (locked(date)) does nothing: its button says why.
 */
export function emitWatches(root, events, locked) {
  root.addEventListener("click", (event) => {
    const button = event.target.closest(".lb-watch");
    const board = button?.closest("[data-date]");
    if (!button || !board || locked(board.dataset.date)) return;
    const own = Boolean(button.closest("tr.you"));
    events.emit("watch-entry", { date: board.dataset.date, entry: Number(button.dataset.entry), own });
  });
}

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

  const tabs = [0, 1].map((index) =>
    element("button", {
      type: "button",
      role: "tab",
      id: `lb-tab-${index}`,
      className: "lb-tab",
      "aria-controls": ids.board,
      "aria-selected": "false",
      tabindex: "-1",
      testid: `leaderboard-tab-${index}`,
    }),
  );
  const tablist = element("div", { className: "lb-tabs", role: "tablist" }, tabs);

  // An earlier day's board (a daily no longer open for scores), and its deal to play again as practice.
  const earlierInput = element("input", { type: "date", id: "lb-earlier", testid: "leaderboard-earlier" });
  const earlierLabel = element("label", { for: "lb-earlier" });
  const playPast = element("button", { type: "button", className: "lb-play-past", testid: "leaderboard-play-past" });
  playPast.hidden = true;
  const earlier = element("div", { className: "lb-earlier" }, [earlierLabel, earlierInput, playPast]);
  earlierInput.addEventListener("change", () => onPickEarlier(earlierInput.value));
  playPast.addEventListener("click", () => onPlayPast());

  const caption = element("caption");
  const headRow = element("tr");
  const head = element("thead", {}, [headRow]);
  const body = element("tbody");
  const table = element("table", { className: "lb-table" }, [caption, head, body]);
  const empty = element("p", { className: "lb-empty" });
  const board = element(
    "div",
    {
      id: ids.board,
      className: "lb-board",
      role: "tabpanel",
      tabindex: "0",
      "aria-labelledby": "lb-tab-0",
    },
    [table, empty],
  );

  // Forget me: this device's entries and name off every board (the page asks first).
  const forget = element("button", { type: "button", className: "lb-forget", testid: "forget-me" });

  panel.setAttribute("aria-labelledby", ids.title);
  panel.append(title, nameGroup, status, chart, tablist, earlier, board, forget);

  forget.addEventListener("click", () => onForget());
  submit.addEventListener("click", () => onSubmit(nameInput.value));
  nameInput.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault(); // the panel sits inside the menu's form: Enter must not deal a game
    event.stopPropagation();
    onSubmit(nameInput.value);
  });
  nameInput.addEventListener("input", () => onNameInput(nameInput.value));
  for (const [index, tab] of tabs.entries()) tab.addEventListener("click", () => onSelectDay(index));
  tablist.addEventListener("keydown", (event) => {
    const current = tabs.findIndex((tab) => tab.getAttribute("aria-selected") === "true");
    const rtl = getComputedStyle(tablist).direction === "rtl";
    const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1, Home: -tabs.length, End: tabs.length }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const next = Math.min(tabs.length - 1, Math.max(0, current + step));
    onSelectDay(next);
    tabs[next].focus();
  });

  /** Fixed texts, again after a language change. */
  function labels() {
    title.textContent = t("leaderboard.title");
    label.textContent = t("leaderboard.nameLabel");
    help.textContent = t("leaderboard.nameHint");
    forget.textContent = t("leaderboard.forget");
    tablist.setAttribute("aria-label", t("leaderboard.days"));
    earlierLabel.textContent = t("leaderboard.earlier");
    playPast.textContent = t("leaderboard.playPast");
    drawTabs();
    headRow.replaceChildren(...columnHeads());
  }

  let tabDates = [null, null];

  /** Today's and yesterday's tabs, each with its date once known ("Today · Dec 1"). */
  function drawTabs(dates = tabDates) {
    tabDates = dates;
    for (const [index, tab] of tabs.entries()) tab.textContent = dayTabText(index, tabDates[index]);
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

  /** The tab of `index` selected; an index past the tabs is the earlier day's board (no tab selected). */
  function selectTab(index) {
    tabs.forEach((tab, i) => {
      tab.setAttribute("aria-selected", String(i === index));
      tab.tabIndex = i === index || (index >= tabs.length && i === 0) ? 0 : -1;
    });
    board.setAttribute("aria-labelledby", index < tabs.length ? tabs[index].id : "lb-earlier");
  }

  /** The earlier day's picker: the last day it offers (YYYY-MM-DD), the one shown ("" for none), and whether that
   * day's deal may be played again now. */
  function setEarlier({ max, value, playable }) {
    earlierInput.max = max;
    if (document.activeElement !== earlierInput) earlierInput.value = value;
    playPast.hidden = !playable;
  }

  function gapRow() {
    const cell = element("td", { colspan: "5", text: "⋯" });
    return element("tr", { className: "lb-gap", "aria-hidden": "true" }, [cell]);
  }

  /**
   * board: the server's answer ({date, entries, total, you}) or null; queued: your own submission not sent yet
   * ({name, score, duration_ms, wrong_slaps}) or null; note: the text shown when there are no rows.
   */
  function drawBoard({ date, board: answer, queued = null, note = "" }) {
    const rows = [];
    const entries = answer?.entries ?? [];
    const locked = Boolean(date && watchLocked(answer?.date ?? date));
    for (const entry of entries) rows.push(boardRow(entry, { you: entry.you === true, locked }));
    const you = answer?.you ?? null;
    if (you && !entries.some((entry) => entry.you === true)) rows.push(gapRow(), boardRow(you, { you: true, locked }));
    if (queued && !you) {
      if (rows.length) rows.push(gapRow());
      rows.push(boardRow({ ...queued, rank: null }, { you: true, queued: true }));
    }
    body.replaceChildren(...rows);
    // The day (YYYY-MM-DD, the server's) whose records the rows' watch buttons fetch.
    if (answer?.date) body.dataset.date = answer.date;
    else delete body.dataset.date;
    const total = answer?.total ?? 0;
    caption.textContent = answer ? t("leaderboard.caption", { count: total, date, top: TOP }) : date;
    table.hidden = rows.length === 0;
    empty.textContent = rows.length ? "" : note || t("leaderboard.empty");
    empty.hidden = rows.length > 0;
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
    selectTab,
    drawTabs,
    setEarlier,
    drawBoard,
    drawChart,
    setNote,
    focusName,
    showNameError,
  };
}
