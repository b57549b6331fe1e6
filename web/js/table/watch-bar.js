// The watch bar under the table while a game is watched: play/pause, the speed (1×, 2×, 4×), the timeline (a range
// to jump anywhere, with a mark along it for each slap taken and each wrong slap, in words), the time, the result
// once the end is reached, and the way back.

import { formatClock, formatNumber, t } from "../base/i18n.js";
import { yourSeat } from "../base/rule-numbers.js";
import { SPEEDS } from "./watcher.js";

const PAGE_MS = 10_000; // Page Up and Page Down move the timeline by 10 s of the game

import { resultTitle, seatName, wrongSlapWhy } from "./words.js";

/** A timeline mark (ewar.watch's) in words, or null for a mark the bar does not show. */
export function markText(mark) {
  if (mark.type === "slap_won") {
    const params = { seat: seatName(mark.seat), pattern: t(`pattern.${mark.pattern}`), ms: mark.reaction_ms };
    return mark.reaction_ms ? t("watch.markSlapMs", params) : t("watch.markSlap", params);
  }
  if (mark.type === "wrong_slap") {
    const why = wrongSlapWhy(mark) ?? "";
    return t("watch.markWrong", { seat: seatName(mark.seat), why }).trim();
  }
  return null;
}

/**
 * root: the bar's element (#watch-bar and its children). onPlay(), onPause(), onSpeed(n), onSeek(ms), onClose():
 * what the player's choices ask of the watcher.
 */
export function createWatchBar({ root, onPlay, onPause, onSpeed, onSeek, onClose }) {
  const part = (name) => root.querySelector(`[data-watch="${name}"]`);
  const title = part("title");
  const range = part("timeline");
  const marks = part("marks");
  const time = part("time");
  const playButton = part("play");
  const speeds = [...root.querySelectorAll("[data-speed]")];
  let duration = 0;
  let playing = false;
  let heading = "";
  let moments = []; // the game's events along the timeline (its marks' times), in order, for the keys

  function drawTime(ms) {
    range.value = String(ms);
    const text = t("watch.time", { now: formatClock(ms), total: formatClock(duration) });
    time.textContent = text;
    range.setAttribute("aria-valuetext", text);
  }

  function drawMarks(list) {
    const items = [];
    for (const mark of list) {
      const text = markText(mark);
      if (text === null) continue;
      const button = document.createElement("button");
      button.type = "button";
      button.className = `watch-mark ${mark.type === "wrong_slap" ? "wrong" : "taken"} ${mark.seat === yourSeat() ? "you" : ""}`;
      button.dataset.testid = "watch-mark";
      button.dataset.t = String(mark.t);
      button.dataset.type = mark.type;
      button.tabIndex = items.length === 0 ? 0 : -1; // one stop for Tab; the arrows move along (markKeys)
      button.title = text;
      button.setAttribute("aria-label", text);
      button.style.insetInlineStart = `${duration ? (100 * mark.t) / duration : 0}%`;
      const item = document.createElement("li");
      item.append(button);
      items.push(item);
    }
    marks.replaceChildren(...items);
    moments = [...new Set(list.map((mark) => mark.t))].sort((a, b) => a - b);
  }

  const rtl = () => getComputedStyle(root).direction === "rtl";

  /** Where a key takes the timeline from `now`: the previous or next event, 10 s back or on, an end; else null. */
  function keyTarget(key, now) {
    const forward = rtl() ? "ArrowLeft" : "ArrowRight";
    const back = rtl() ? "ArrowRight" : "ArrowLeft";
    if (key === forward || key === "ArrowUp") return moments.find((t) => t > now) ?? duration;
    if (key === back || key === "ArrowDown") return moments.findLast((t) => t < now) ?? 0;
    if (key === "PageUp") return Math.min(duration, now + PAGE_MS);
    if (key === "PageDown") return Math.max(0, now - PAGE_MS);
    if (key === "Home") return 0;
    if (key === "End") return duration;
    return null;
  }

  /** The marks are one Tab stop: the arrows (and Home, End) move the focus along them, Enter or a tap jumps. */
  function markKeys(event) {
    const buttons = [...marks.querySelectorAll(".watch-mark")];
    const index = buttons.indexOf(event.target);
    if (index < 0) return;
    const step = {
      [rtl() ? "ArrowLeft" : "ArrowRight"]: 1,
      [rtl() ? "ArrowRight" : "ArrowLeft"]: -1,
      Home: -buttons.length,
      End: buttons.length,
    }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const next = buttons[Math.min(buttons.length - 1, Math.max(0, index + step))];
    for (const button of buttons) button.tabIndex = button === next ? 0 : -1;
    next.focus();
  }

  function drawPlaying(value) {
    playing = value;
    playButton.textContent = t(value ? "watch.pause" : "watch.play");
    playButton.setAttribute("aria-pressed", String(value));
  }

  function drawSpeed(value) {
    for (const button of speeds) button.setAttribute("aria-pressed", String(Number(button.dataset.speed) === value));
  }

  playButton.addEventListener("click", () => (playing ? onPause() : onPlay()));
  for (const button of speeds) {
    button.textContent = `${formatNumber(Number(button.dataset.speed))}×`;
    button.addEventListener("click", () => onSpeed(Number(button.dataset.speed)));
  }
  range.addEventListener("input", () => onSeek(Number(range.value)));
  // The keys move by the game's events, not by a millisecond: the range's own steps would take 38,000 presses.
  range.addEventListener("keydown", (event) => {
    const target = keyTarget(event.key, Number(range.value));
    if (target === null) return;
    event.preventDefault();
    onSeek(target);
  });
  marks.addEventListener("keydown", markKeys);
  marks.addEventListener("click", (event) => {
    const mark = event.target.closest(".watch-mark");
    if (mark) onSeek(Number(mark.dataset.t));
  });
  part("close").addEventListener("click", onClose);

  return {
    /** Shows the bar for a game's timeline ({duration_ms, marks}), under a heading (whose game it is). */
    show(timeline, headingText) {
      duration = timeline.duration_ms;
      heading = headingText;
      title.textContent = heading;
      range.max = String(duration);
      drawMarks(timeline.marks);
      drawSpeed(SPEEDS[0]);
      drawPlaying(false);
      drawTime(0);
      root.hidden = false;
    },
    hide() {
      root.hidden = true;
    },
    drawTime,
    drawPlaying,
    drawSpeed,
    /** The end is reached: the game's result beside the heading. */
    drawResult(result) {
      title.textContent = t("watch.result", {
        title: heading,
        result: resultTitle(result),
        count: result.score,
      });
      drawPlaying(false);
    },
    /** Back at a moment before the end: the heading alone. */
    clearResult() {
      title.textContent = heading;
    },
    focus: () => playButton.focus(),
  };
}
