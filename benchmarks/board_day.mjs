// A day of the board bulk-loaded for the benchmarks (bench_board.mjs, bench_friends.mjs): `count` entries whose
// scores spread like a real day's (70% wins at 500-1,999, losses at 25 a pile, 0-975) and their bucket counts.

/** Inserts `count` entries and their buckets for `date`; `withPlayers` gives each a player hash too. */
export async function loadBoardDay(pool, date, count, { withPlayers = false } = {}) {
  await pool.query(
    `INSERT INTO entries (day, id, name, name_key, score, won, duration_ms, wrong_slaps, game_sha256,
                          replay_sha256, received_at, engine_version, player_sha256)
     SELECT $1::date, 'day' || lpad(g::text, 11, '0'), 'Player ' || g, 'player ' || g,
            CASE WHEN won THEN 500 + (hashint % 1500) ELSE 25 * (hashint % 40) END, won,
            60000 + (hashint % 200000), hashint % 3,
            sha256(('game' || g)::bytea), sha256(('replay' || g)::bytea), 1796000000000 + g, '3.0.0',
            CASE WHEN $3 THEN sha256(('player' || g)::bytea) END
     FROM (SELECT g, (abs(hashtext(g::text)) % 100) < 70 AS won, abs(hashtext('s' || g)) AS hashint
           FROM generate_series(1, $2::int) AS g) AS spread`,
    [date, count, withPlayers],
  );
  await pool.query(
    `INSERT INTO buckets (day, won, score, entries)
     SELECT day, won, score, count(*) FROM entries WHERE day = $1::date GROUP BY day, won, score`,
    [date],
  );
}
