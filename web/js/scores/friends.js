// Friends' boards on the page: create one (its name checked by the name rules before it is sent), share its
// link, join the board a link names (?friends=<code>) on this device, leave one, and see each board's ranking
// for today or yesterday. What is decided lives in friends-state.js; the API is /api/friends (docs/scores.md).

import { ENDPOINTS, friendsPath, submissionDates } from "../../common/contract.js";
import { checkName } from "../../common/names.js";
import { bringIntoView, element } from "../base/dom.js";
import { formatDate, t } from "../base/i18n.js";
import { createBoardLoader } from "./board-loader.js";
import { boardRows, createBoardTable, createDayTabs, emitWatches } from "./board-view.js";
import { afterJoin, afterLeave, friendsLink, isOwnEntry, linkRequest, refusalKey } from "./friends-state.js";
import { watchLocked } from "./records.js";

const FRIENDS_TESTIDS = Object.freeze({ row: "friends-row", you: "friends-row", watch: "friends-watch" });

/**
 * panel: the menu's #friends element; friendsStore (the boards joined), playerStore (the player id), scoreStore and
 * historyStore (your own row, a locked Watch): the page's stores; events: the
 * app's emitter (language, settled scores); shareText(text): the page's share-or-copy (panels/share.js), which
 * resolves to "shared", "copied", "cancelled" or "failed"; base: the page's address without a query; clock: the
 * page's wall clock (web/common/clock.js); api: the boards' API (board-api.js). The tabs follow the day's turn.
 */
export function createFriends({
  panel,
  friendsStore,
  playerStore,
  scoreStore,
  historyStore,
  events,
  shareText,
  base,
  clock,
  api,
}) {
  let selected = null; // the code of the board shown
  let day = 0; // 0: today, 1: yesterday
  let revealBoard = false; // a board just joined: brought into view once its rows are drawn

  const dates = () => submissionDates(clock.now());

  // ---- The panel's parts, built once; words come from labels()

  const title = element("h3", { id: "fr-title" });
  const nameInput = element("input", {
    id: "fr-name",
    type: "text",
    testid: "friends-name",
    spellcheck: "false",
    maxlength: "40",
    enterkeyhint: "done",
    "aria-describedby": "fr-error",
  });
  const create = element("button", { type: "button", className: "lb-submit", testid: "friends-create" });
  const nameLabel = element("label", { for: "fr-name" });
  const error = element("p", { id: "fr-error", className: "lb-error", role: "alert", testid: "friends-error" });
  const status = element("p", { className: "lb-status", role: "status", testid: "friends-status" });
  const listTitle = element("h4", { className: "fr-list-title" });
  const list = element("ul", { className: "fr-list", testid: "friends-list" });
  const none = element("p", { className: "lb-empty", testid: "friends-none" });
  const boardTitle = element("h4", { className: "fr-board-title", testid: "friends-board-title" });
  const link = element("input", { type: "text", readonly: "", className: "fr-link", testid: "friends-link" });
  const shareButton = element("button", { type: "button", className: "share", testid: "friends-share" });
  // The day's board under its tabs, drawn as the daily board's (board-view.js).
  const board = createBoardTable({ id: "fr-board", testids: { table: "friends-board", empty: "friends-empty" } });
  const tabs = createDayTabs({ idPrefix: "fr", testid: "friends-tab", panel: board.element, onSelect: selectDay });
  const boardPart = element("div", { className: "fr-board" }, [
    boardTitle,
    element("div", { className: "fr-link-row" }, [link, shareButton]),
    tabs.element,
    board.element,
  ]);
  panel.replaceChildren(
    title,
    element("div", { className: "lb-name" }, [
      nameLabel,
      element("div", { className: "lb-name-row" }, [nameInput, create]),
      error,
    ]),
    status,
    listTitle,
    none,
    list,
    boardPart,
  );
  panel.setAttribute("aria-labelledby", "fr-title");

  function labels() {
    title.textContent = t("friends.title");
    nameLabel.textContent = t("friends.nameLabel");
    create.textContent = t("friends.create");
    listTitle.textContent = t("friends.yours");
    none.textContent = t("friends.none");
    shareButton.textContent = t("friends.share");
    link.setAttribute("aria-label", t("friends.linkLabel"));
    tabs.labels();
    board.labels();
  }

  const say = (text, state = "") => {
    status.textContent = text;
    status.dataset.state = state;
  };

  // ---- Drawing

  function drawList() {
    const boards = friendsStore.friendsBoards();
    none.hidden = boards.length > 0;
    list.replaceChildren(
      ...boards.map((board) => {
        const show = element("button", { type: "button", className: "fr-show", testid: "friends-show" });
        show.textContent = board.name; // a name is text, never HTML
        show.setAttribute("aria-pressed", String(board.code === selected));
        show.addEventListener("click", () => select(board.code));
        const leaveButton = element("button", { type: "button", className: "fr-leave", testid: "friends-leave" });
        leaveButton.textContent = t("friends.leave");
        leaveButton.setAttribute("aria-label", t("friends.leaveLabel", { name: board.name }));
        leaveButton.addEventListener("click", () => leave(board));
        return element("li", { "data-code": board.code, testid: "friends-item" }, [show, leaveButton]);
      }),
    );
  }

  function drawBoard() {
    const shown = friendsStore.friendsBoards().find((b) => b.code === selected);
    boardPart.hidden = !shown;
    if (!shown) return;
    boardTitle.textContent = shown.name;
    link.value = friendsLink(base, shown.code);
    tabs.draw(dates());
    tabs.select(day);
    const current = loader.current();
    // As the daily board: your row marked, won or lost, and Watch (main.js opens it from the row's day).
    const date = dates()[day];
    const own = scoreStore.scoreRecords(dates())[date] ?? null;
    // Today's games only after your daily.
    const locked = watchLocked(current?.board?.date ?? date, { historyStore, scoreStore }, clock.today());
    const rows = boardRows(current?.board?.entries ?? [], {
      isYou: (entry) => isOwnEntry(entry, own),
      locked,
      testids: FRIENDS_TESTIDS,
    });
    let note = t("friends.empty");
    if (!current) note = t("leaderboard.loading");
    else if (!current.board) note = t("friends.unavailable");
    board.draw({ rows, date: current?.board?.date ?? null, caption: formatDate(date), note });
  }

  /** A day's tab chosen (0: today, 1: yesterday): its board shown, asked for if need be. */
  function selectDay(index) {
    day = index;
    drawBoard();
    loadBoard();
  }

  function render() {
    drawList();
    drawBoard();
  }

  // ---- The board shown: one request per board and day wanted (board-loader.js, as the daily board's)

  const loader = createBoardLoader({
    wanted: () => (selected ? `${selected}/${dates()[day]}` : null),
    fetchAnswer: (key) => {
      const [code, date] = key.split("/");
      return api.fetchBoard(`${friendsPath(code)}?${new URLSearchParams({ date })}`);
    },
    clock,
    // Not before the page shows it: the menu's opening asks, once, when the engine is ready.
    ready: () => events.state().panel !== "loading",
    onShown: () => {
      drawBoard();
      if (revealBoard) {
        revealBoard = false;
        bringIntoView(status, events, { block: "start" });
      }
    },
  });
  const loadBoard = (options) => loader.load(options);

  function select(code) {
    selected = code;
    render();
    loadBoard();
  }

  async function createBoard() {
    const checked = checkName(nameInput.value);
    if (!checked.ok) {
      error.textContent = t("leaderboard.nameInvalid");
      nameInput.focus();
      return;
    }
    error.textContent = "";
    create.disabled = true;
    const answer = await api.send("POST", ENDPOINTS.friends, { name: checked.name, player: playerStore.playerId() });
    create.disabled = false;
    if (!answer.ok) {
      error.textContent = t(refusalKey(answer)); // role=alert: said as it is shown
      error.scrollIntoView({ block: "nearest" });
      return;
    }
    friendsStore.saveFriendsBoards(afterJoin(friendsStore.friendsBoards(), answer.body));
    nameInput.value = "";
    say(t("friends.created", { name: answer.body.name }), "created");
    select(answer.body.code);
  }

  async function join(code) {
    say(t("friends.joining"), "busy");
    const answer = await api.send("PUT", friendsPath(code, true), { player: playerStore.playerId() });
    if (!answer.ok) {
      say(t(refusalKey(answer)), "refused");
      bringIntoView(status, events);
      return;
    }
    friendsStore.saveFriendsBoards(afterJoin(friendsStore.friendsBoards(), answer.body));
    say(t(answer.body.joined ? "friends.joined" : "friends.already", { name: answer.body.name }), "joined");
    revealBoard = true; // again once its rows are drawn: they come after the words
    select(code);
    bringIntoView(status, events, { block: "start" }); // the joined board is drawn under its words
  }

  async function leave(board) {
    const answer = await api.send("DELETE", friendsPath(board.code, true), { player: playerStore.playerId() });
    // not_found: this device is no member there any more (or the board is gone): off the list all the same.
    if (!answer.ok && answer.body?.error !== "not_found") {
      say(t(refusalKey(answer)), "refused");
      return;
    }
    friendsStore.saveFriendsBoards(afterLeave(friendsStore.friendsBoards(), board.code));
    if (selected === board.code) selected = friendsStore.friendsBoards()[0]?.code ?? null;
    say(t("friends.left", { name: board.name }), "left");
    render();
    loadBoard();
  }

  async function shareLink() {
    const board = friendsStore.friendsBoards().find((b) => b.code === selected);
    if (!board) return;
    const address = friendsLink(base, board.code);
    const outcome = await shareText(t("friends.shareText", { name: board.name, link: address }));
    if (outcome === "copied") say(t("friends.copied"), "copied");
    else if (outcome === "shared") say(t("share.shared"), "copied");
    else if (outcome === "failed") {
      say(t("friends.copyYourself"), "failed");
      link.select();
    }
  }

  // ---- Entry point

  /** Builds the panel, and joins the board the page's address names (?friends=<code>), if any. */
  function start(search = location.search) {
    panel.hidden = false;
    labels();
    selected = friendsStore.friendsBoards()[0]?.code ?? null;
    create.addEventListener("click", createBoard);
    nameInput.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault(); // Enter here creates the board; it does not deal a game
      createBoard();
    });
    nameInput.addEventListener("input", () => {
      error.textContent = "";
    });
    shareButton.addEventListener("click", shareLink);
    events.on("language", () => {
      labels();
      render();
    });
    events.on("leaderboard-changed", () => loadBoard({ fresh: true }));
    // A new UTC day under the open page: the tabs name the new days and the board shown is the tab's new day.
    events.on("day-turned", () => {
      drawBoard();
      loadBoard();
    });
    // Forget me took this device off every friends' board: its list is gone with it.
    events.on("player-forgotten", () => {
      selected = null;
      render();
    });
    events.on("state", ({ panel: shownPanel, previous }) => {
      // Back in the menu: fresh ranks, unless the board shown was fetched just now (the page's load joins a link).
      if (shownPanel === "menu" && previous?.panel !== "menu" && loader.stale()) loadBoard();
    });
    emitWatches(panel, events, (date) => watchLocked(date, { historyStore, scoreStore }, clock.today()));
    render();
    const asked = linkRequest(search);
    if (asked.friends) {
      join(asked.friends).catch((err) => console.warn("friends:", err));
    } else if (asked.badCode) {
      say(t("friends.errorNotFound"), "refused");
      bringIntoView(status, events);
    } else {
      loadBoard();
    }
  }

  return { start };
}
