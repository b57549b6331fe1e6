// What the daily board and the friends' boards draw alike: the day tabs (ARIA tabs: arrow keys, Home, End, one tab
// in the Tab order), the board's table (column heads, rows, the note when it has none), a row (names as text only)
// and its Watch. Each board's own panel (leaderboard-view.js, friends.js) places them and decides what they show.

import { element } from "../base/dom.js";
import { formatClock, formatDayMonth, formatNumber, t } from "../base/i18n.js";

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
function boardRow(entry, { you = false, queued = false, locked = false, testids } = {}) {
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

function gapRow() {
  const cell = element("td", { colspan: "5", text: "⋯" });
  return element("tr", { className: "lb-gap", "aria-hidden": "true" }, [cell]);
}

/**
 * A board's rows: its entries (isYou(entry): the player's own), then your own entry below a gap when the board's top
 * rows do not hold it (you: the server's row for you, or null), or else your score not sent yet (queued:
 * {name, score, duration_ms, wrong_slaps}, or null). locked and testids as boardRow's.
 */
export function boardRows(
  entries,
  { isYou = (entry) => entry.you === true, you = null, queued = null, locked = false, testids },
) {
  const rows = entries.map((entry) => boardRow(entry, { you: isYou(entry), locked, testids }));
  if (you && !entries.some(isYou)) rows.push(gapRow(), boardRow(you, { you: true, locked, testids }));
  if (queued && !you) {
    if (rows.length) rows.push(gapRow());
    rows.push(boardRow({ ...queued, rank: null }, { you: true, queued: true, testids }));
  }
  return rows;
}

/**
 * A board's table inside its tab panel (role=tabpanel, `id`; the day tabs label it): caption, column heads, rows, and
 * the note shown instead when there are no rows. testids: {table, empty}, those the tests find them by.
 */
export function createBoardTable({ id, testids = {} }) {
  const caption = element("caption");
  const headRow = element("tr");
  const body = element("tbody");
  const table = element("table", { className: "lb-table" }, [caption, element("thead", {}, [headRow]), body]);
  const empty = element("p", { className: "lb-empty" });
  if (testids.table) table.dataset.testid = testids.table;
  if (testids.empty) empty.dataset.testid = testids.empty;
  const panel = element("div", { id, className: "lb-board", role: "tabpanel", tabindex: "0" }, [table, empty]);

  /** The column heads, again after a language change. */
  function labels() {
    headRow.replaceChildren(...columnHeads());
  }

  /**
   * rows: boardRows' (or none); date: the day (YYYY-MM-DD, the server's) whose games the rows' Watch fetches, or
   * null; caption: the table's caption; note: what is said when there are no rows.
   */
  function draw({ rows, date = null, caption: captionText = "", note }) {
    body.replaceChildren(...rows);
    if (date) body.dataset.date = date;
    else delete body.dataset.date;
    caption.textContent = captionText;
    table.hidden = rows.length === 0;
    empty.textContent = rows.length ? "" : note;
    empty.hidden = rows.length > 0;
  }

  labels();
  return { element: panel, labels, draw };
}

/**
 * Today's and yesterday's tabs (role=tablist, ids `${idPrefix}-tab-<index>`, test ids `${testid}-<index>`) over
 * `panel`, the board's tab panel. A click, the arrow keys (mirrored right to left), Home and End ask for a tab with
 * onSelect(index); the owner decides and shows its choice with select(index). otherLabel: the id of what labels the
 * panel when no tab is selected (an earlier day picked), if that can be.
 */
export function createDayTabs({ idPrefix, testid, panel, onSelect, otherLabel = null }) {
  const tabs = [0, 1].map((index) =>
    element("button", {
      type: "button",
      role: "tab",
      id: `${idPrefix}-tab-${index}`,
      className: "lb-tab",
      "aria-controls": panel.id,
      "aria-selected": "false",
      tabindex: "-1",
      testid: `${testid}-${index}`,
    }),
  );
  const tablist = element("div", { className: "lb-tabs", role: "tablist" }, tabs);
  panel.setAttribute("aria-labelledby", tabs[0].id);
  let dates = [null, null];

  for (const [index, tab] of tabs.entries()) tab.addEventListener("click", () => onSelect(index));
  tablist.addEventListener("keydown", (event) => {
    const current = tabs.findIndex((tab) => tab.getAttribute("aria-selected") === "true");
    const rtl = getComputedStyle(tablist).direction === "rtl";
    const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1, Home: -tabs.length, End: tabs.length }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const next = Math.min(tabs.length - 1, Math.max(0, current + step));
    onSelect(next);
    tabs[next].focus();
  });

  /** Each tab's words with its date once known ("Today · Dec 1"); `days` kept for a language change. */
  function draw(days = dates) {
    dates = days;
    for (const [index, tab] of tabs.entries()) tab.textContent = dayTabText(index, dates[index]);
  }

  /** The strip's name and the tabs' words, again after a language change. */
  function labels() {
    tablist.setAttribute("aria-label", t("leaderboard.days"));
    draw();
  }

  /** The tab of `index` selected (the one in the Tab order); an index past the tabs selects none. */
  function select(index) {
    const none = index >= tabs.length;
    tabs.forEach((tab, i) => {
      tab.setAttribute("aria-selected", String(i === index));
      tab.tabIndex = i === index || (none && i === 0) ? 0 : -1;
    });
    panel.setAttribute("aria-labelledby", none ? (otherLabel ?? tabs[0].id) : tabs[index].id);
  }

  labels();
  return { element: tablist, labels, draw, select };
}
