// The board operator's hiding of an entry or a name (tools/board_admin.mjs), each one statement with its audit
// row in `moderation`. A hidden entry leaves the board, every rank and count, friends' boards and its replay at
// once; a hidden name's key is refused on every later post (handler.mjs) and its entries are hidden.

import { normalizeName } from "../../web/common/names.js";
import { nameKey } from "../lib/lookalike.mjs";

// Hides the rows `target` picks (a CTE of (seq)), takes them out of their buckets, and writes one audit row.
// `first`: a CTE run before, in the same statement.
const hideAndAudit = (target, audit, first = "") => `WITH ${first}target AS (${target}),
hidden AS (
  UPDATE entries e SET hidden = true FROM target WHERE e.seq = target.seq AND NOT e.hidden
  RETURNING e.day, e.won, e.score, e.seq
), uncounted AS (
  UPDATE buckets b SET entries = b.entries - h.n
  FROM (SELECT day, won, score, count(*)::int AS n FROM hidden GROUP BY 1, 2, 3) h
  WHERE b.day = h.day AND b.won = h.won AND b.score = h.score
), audit AS (
  INSERT INTO moderation (operator, action, day, entry_seq, name_key, reason, entries)
  ${audit}
)
SELECT (SELECT count(*) FROM hidden)::int AS hidden, (SELECT count(*) FROM target)::int AS found`;

const HIDE_ENTRY = hideAndAudit(
  "SELECT seq FROM entries WHERE day = $1::date AND seq = $2::bigint",
  "SELECT $3, 'hide_entry', $1::date, $2::bigint, NULL, $4, (SELECT count(*) FROM hidden)::int WHERE EXISTS (SELECT 1 FROM target)",
);

const HIDE_NAME = hideAndAudit(
  "SELECT seq FROM entries WHERE name_key = $1",
  "SELECT $2, 'hide_name', NULL, NULL, $1, $3, (SELECT count(*) FROM hidden)::int",
  "listed AS (INSERT INTO hidden_names (name_key) VALUES ($1) ON CONFLICT DO NOTHING),\n",
);

/** Operator and reason: said in words, kept in the audit table. */
function checkWords(operator, reason) {
  if (typeof operator !== "string" || !operator.trim() || operator.length > 100) {
    throw new Error("say who you are (--operator, 1-100 characters): the audit table keeps it");
  }
  if (typeof reason !== "string" || !reason.trim() || reason.length > 500) {
    throw new Error("say why (--reason, 1-500 characters): the audit table keeps it");
  }
}

/**
 * Hides entry number `entry` of `date`. Resolves to { found: 0 | 1, hidden: 0 | 1 } (hidden 0 when it already
 * was); the audit row is written when the entry exists.
 */
export async function hideEntry(db, { date, entry, operator, reason }) {
  checkWords(operator, reason);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date ?? "")) throw new Error("--date is the entry's day, YYYY-MM-DD");
  if (!/^[1-9][0-9]{0,15}$/.test(String(entry ?? ""))) throw new Error("--entry is the board row's number");
  const { rows } = await db.query(HIDE_ENTRY, [date, String(entry), operator.trim(), reason.trim()]);
  return rows[0];
}

/**
 * Hides a name: its look-alike key is refused from now on, and every entry under it, any day, is hidden.
 * Resolves to { key, found, hidden }.
 */
export async function hideName(db, { name, operator, reason }) {
  checkWords(operator, reason);
  if (typeof name !== "string" || !name.trim()) throw new Error("--name is the name to hide");
  const key = nameKey(normalizeName(name));
  const { rows } = await db.query(HIDE_NAME, [key, operator.trim(), reason.trim()]);
  return { key, ...rows[0] };
}
