// What the page's wall clock keeps across visits: how far the server's clock is ahead of this device's.

import { keyed } from "./local-store.js";

const KEY_SERVER_OFFSET = "ewar.serverOffsetMs"; // ms, the server's clock minus this device's

/** backend: the page's (local-store.js, pageBackend). */
export function createClockStore(backend) {
  const kept = keyed(backend);

  /** The server's clock minus this device's, as last learnt (web/common/clock.js); 0 until heard. */
  function serverOffset() {
    const ms = Number(kept.readText(KEY_SERVER_OFFSET));
    return Number.isFinite(ms) ? ms : 0;
  }

  const keepServerOffset = (ms) => kept.writeText(KEY_SERVER_OFFSET, String(ms));

  return { serverOffset, keepServerOffset };
}
