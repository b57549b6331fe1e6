-- One game is its timing, not its path (docs/scores.md, "One game, one entry"); one player id, one entry a day on
-- the public board; entries and names the board's operator hid, with their audit trail (docs/deploy.md, "Hiding an
-- entry or a name").

-- The best players of a daily all play one path: the path no longer makes two records one game.
ALTER TABLE entries DROP CONSTRAINT entries_game_key;

-- The marks of each entry's timing (netlify/functions/scores/samegame.mjs): a new record's near-copies are the
-- entries sharing the most marks with it, found through this primary key's index.
CREATE TABLE entry_marks (
  day  date    NOT NULL,
  mark integer NOT NULL,
  seq  bigint  NOT NULL REFERENCES entries (seq) ON DELETE CASCADE,
  PRIMARY KEY (day, mark, seq)
);
CREATE INDEX entry_marks_by_seq ON entry_marks (seq);

-- An entry the operator hid: off the board and out of every rank and count (its bucket no longer counts it).
ALTER TABLE entries ADD COLUMN hidden boolean NOT NULL DEFAULT false;

-- Every hiding, by whom and why: what the operator did is kept even when the entry is gone.
CREATE TABLE moderation (
  at        timestamptz NOT NULL DEFAULT now(),
  operator  text        NOT NULL CHECK (char_length(operator) BETWEEN 1 AND 100),
  action    text        NOT NULL CHECK (action IN ('hide_entry', 'hide_name')),
  day       date,
  entry_seq bigint,
  name_key  text,
  reason    text        NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 500),
  entries   integer     NOT NULL CHECK (entries >= 0)
);

-- A name's key the operator hid: refused on every day from then on (its entries hidden with it).
CREATE TABLE hidden_names (
  name_key text PRIMARY KEY,
  at       timestamptz NOT NULL DEFAULT now()
);

-- A bucket may now count none: it is kept at 0 (a rank sums buckets).
ALTER TABLE buckets DROP CONSTRAINT buckets_entries_check;
ALTER TABLE buckets ADD CONSTRAINT buckets_entries_check CHECK (entries >= 0);

-- Before the rule, one player id could post several entries a day: all but its first of each day are hidden,
-- each with its audit row, so the public board keeps one entry per player id and day.
WITH extra AS (
  SELECT seq, day FROM (
    SELECT seq, day, row_number() OVER (PARTITION BY day, player_sha256 ORDER BY seq) AS n
    FROM entries WHERE player_sha256 IS NOT NULL) ranked
  WHERE n > 1
), hidden AS (
  UPDATE entries e SET hidden = true FROM extra WHERE e.seq = extra.seq RETURNING e.day, e.won, e.score, e.seq
), uncounted AS (
  UPDATE buckets b SET entries = b.entries - h.n
  FROM (SELECT day, won, score, count(*)::int AS n FROM hidden GROUP BY 1, 2, 3) h
  WHERE b.day = h.day AND b.won = h.won AND b.score = h.score
)
INSERT INTO moderation (operator, action, day, entry_seq, reason, entries)
SELECT 'migration 0003', 'hide_entry', day, seq, 'a further entry of the same player id that day', 1 FROM hidden;

-- One player id, one entry a day on the public board (the page plays one daily a day).
DROP INDEX entries_by_player;
CREATE UNIQUE INDEX entries_player_key ON entries (day, player_sha256) WHERE player_sha256 IS NOT NULL AND NOT hidden;
