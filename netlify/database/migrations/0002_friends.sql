-- Friends' boards (docs/scores.md, "Friends' boards"). A device is a random player id the page makes; only its
-- SHA-256 is stored, on the entries it sent and on the boards it joined. The constraints are the boards' rules.

-- An entry's public number is its seq (GET /api/scores/replay finds an entry by it, not by a scan of its day).
CREATE UNIQUE INDEX entries_seq_key ON entries (seq);

-- The player (hashed) of an entry, when the page sent one: a friends' board lists its members' entries.
ALTER TABLE entries ADD COLUMN player_sha256 bytea CHECK (octet_length(player_sha256) = 32);
CREATE INDEX entries_by_player ON entries (day, player_sha256) WHERE player_sha256 IS NOT NULL;

-- A board: its share code (12 characters of base32), its name (the name rules), how many members it has (at most
-- 50: the check refuses the 51st join, whoever races for it, since each join counts on this row under its lock)
-- and when it was last read, joined or posted to (ms since the epoch: a board unused for 60 days is deleted).
CREATE TABLE friend_boards (
  code      text    PRIMARY KEY CHECK (code ~ '^[a-z2-7]{12}$'),
  name      text    NOT NULL CHECK (char_length(name) BETWEEN 1 AND 20),
  members   integer NOT NULL CHECK (members BETWEEN 0 AND 50),
  last_used bigint  NOT NULL
);
CREATE INDEX friend_boards_last_used ON friend_boards (last_used);

-- Who joined which board: one row a member, gone with its board.
CREATE TABLE friend_members (
  code          text  NOT NULL REFERENCES friend_boards (code) ON DELETE CASCADE,
  player_sha256 bytea NOT NULL CHECK (octet_length(player_sha256) = 32),
  PRIMARY KEY (code, player_sha256)
);
CREATE INDEX friend_members_by_player ON friend_members (player_sha256);
