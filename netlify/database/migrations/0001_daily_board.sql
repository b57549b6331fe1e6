-- The daily board (docs/scores.md, "Storage"). One row per accepted entry; the unique constraints are the board's
-- rules: one entry per submission id, one per game, one per name (its look-alike key) on each day.
CREATE TABLE entries (
  day            date        NOT NULL,
  id             text        NOT NULL,
  seq            bigint      GENERATED ALWAYS AS IDENTITY,
  name           text        NOT NULL,
  name_key       text        NOT NULL,
  score          integer     NOT NULL CHECK (score >= 0),
  won            boolean     NOT NULL,
  duration_ms    integer     NOT NULL CHECK (duration_ms >= 0),
  wrong_slaps    integer     NOT NULL CHECK (wrong_slaps >= 0),
  game_sha256    bytea       NOT NULL CHECK (octet_length(game_sha256) = 32),
  replay_sha256  bytea       NOT NULL CHECK (octet_length(replay_sha256) = 32),
  received_at    bigint      NOT NULL,
  engine_version text        NOT NULL,
  CONSTRAINT entries_id_key PRIMARY KEY (day, id),
  CONSTRAINT entries_game_key UNIQUE (day, game_sha256),
  CONSTRAINT entries_name_key UNIQUE (day, name_key)
);

-- Board order: every win above every loss, then the higher score, then the earlier arrival (seq). The top 50 is
-- the first 50 of this index; an entry's place among its equals is a count along it.
CREATE INDEX entries_board_order ON entries (day, won DESC, score DESC, seq);

-- How many entries each (won, score) bucket holds on a day, kept in the entry's own transaction: a rank is the sum
-- of the buckets above (a few thousand rows at most) plus the entry's place in its own bucket.
CREATE TABLE buckets (
  day     date    NOT NULL,
  won     boolean NOT NULL,
  score   integer NOT NULL,
  entries integer NOT NULL CHECK (entries > 0),
  PRIMARY KEY (day, won, score)
);

-- The replay of each entry, deflated canonical JSON, apart from the narrow rows the board reads. Kept
-- REPLAY_DAYS (netlify/functions/scores/store.mjs), then deleted; the entry stays.
CREATE TABLE replays (
  day     date  NOT NULL,
  id      text  NOT NULL,
  deflated bytea NOT NULL,
  PRIMARY KEY (day, id),
  FOREIGN KEY (day, id) REFERENCES entries (day, id) ON DELETE CASCADE
);
