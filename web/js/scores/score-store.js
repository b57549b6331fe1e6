// The daily scores' submission records and the boards last seen, by date: the leaderboard's memory of the days
// still open (older days are dropped as they are written).

import { keyed, onlyDates } from "../base/local-store.js";

const KEY_SCORES = "ewar.scores"; // {date: the daily's submission record}
const KEY_BOARDS = "ewar.leaderboards"; // {date: {board, seenAt}}

/** backend: the page's (local-store.js, pageBackend). */
export function createScoreStore(backend) {
  const kept = keyed(backend);

  /** The daily scores' submission records, by date, of the given dates only (older ones are dropped). */
  const scoreRecords = (dates) => onlyDates(kept.readJson(KEY_SCORES, {}), dates);

  /** Keeps one day's submission record (rec.date), and the other records of `dates`. */
  function saveScoreRecord(rec, dates) {
    kept.writeJson(KEY_SCORES, { ...scoreRecords(dates), [rec.date]: rec });
  }

  /** The leaderboard last seen for `date` ({board, seenAt}: the server's answer and when), or null. */
  const keptBoard = (date) => kept.readJson(KEY_BOARDS, {})[date] ?? null;

  /** Keeps the board just seen for `date`, and the boards of `dates` (older ones are dropped). */
  function keepBoard(date, board, seenAt, dates) {
    const boards = onlyDates(kept.readJson(KEY_BOARDS, {}), dates);
    kept.writeJson(KEY_BOARDS, { ...boards, [date]: { board, seenAt } });
  }

  /** Forget me, on this device: the records and the boards kept. */
  const forget = () => kept.remove(KEY_SCORES, KEY_BOARDS);

  return { scoreRecords, saveScoreRecord, keptBoard, keepBoard, forget };
}
