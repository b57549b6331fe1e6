// The board operator's command: hides an entry or a name on the production board (docs/deploy.md, "Hiding an
// entry or a name"). It connects with the database URL in EWAR_BOARD_DATABASE_URL (the site's Netlify Database
// connection string, given for this one command: it is never written anywhere) and writes an audit row.
//
//   EWAR_BOARD_DATABASE_URL=... node tools/board_admin.mjs hide-entry --date 2026-12-03 --entry 1234 \
//     --operator "Sam" --reason "a bot's search of the public deal"
//   EWAR_BOARD_DATABASE_URL=... node tools/board_admin.mjs hide-name --name "..." --operator "Sam" --reason "..."
//   ... node tools/board_admin.mjs audit [--limit 20]
import { parseArgs } from "node:util";
import pg from "pg";
import { hideEntry, hideName } from "../netlify/database/moderation.mjs";

const USAGE = `usage: node tools/board_admin.mjs hide-entry --date YYYY-MM-DD --entry N --operator WHO --reason WHY
       node tools/board_admin.mjs hide-name --name NAME --operator WHO --reason WHY
       node tools/board_admin.mjs audit [--limit N]
(EWAR_BOARD_DATABASE_URL: the board's database URL)`;

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      date: { type: "string" },
      entry: { type: "string" },
      name: { type: "string" },
      operator: { type: "string" },
      reason: { type: "string" },
      limit: { type: "string", default: "20" },
    },
  });
  const [command] = positionals;
  const url = process.env.EWAR_BOARD_DATABASE_URL;
  if (!url) throw new Error(`EWAR_BOARD_DATABASE_URL is not set\n${USAGE}`);
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    if (command === "hide-entry") {
      const done = await hideEntry(pool, values);
      if (!done.found) throw new Error(`no entry ${values.entry} on ${values.date}`);
      console.log(done.hidden ? `entry ${values.entry} of ${values.date} hidden` : "that entry was hidden already");
    } else if (command === "hide-name") {
      const done = await hideName(pool, values);
      console.log(`name key "${done.key}" hidden: ${done.hidden} entries taken off the board`);
    } else if (command === "audit") {
      const { rows } = await pool.query(
        "SELECT at, operator, action, day::text, entry_seq::text, name_key, reason, entries FROM moderation ORDER BY at DESC LIMIT $1",
        [Number(values.limit)],
      );
      for (const row of rows) console.log(JSON.stringify(row));
    } else {
      throw new Error(USAGE);
    }
  } finally {
    await pool.end();
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exit(2);
});
