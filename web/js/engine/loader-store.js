// The loader's choices kept by this browser: a path forced by a tool or a test, the build snapshot it loaded last
// (its sha256 and file), and the device snapshot key whose own snapshot failed here.

import { keyed } from "../base/local-store.js";

const KEY_LOAD_PATH = "ewar.load"; // "snapshot" | "micropip" | "auto": forces the loader's path (tests, tools)
const KEY_SNAPSHOT_SEEN = "ewar.snapshotLoaded"; // sha256 of the last memory snapshot this browser loaded
const KEY_SNAPSHOT_FILE = "ewar.snapshotFile"; // its file: read as a load starts
const KEY_DEVICE_SNAPSHOT_FAILED = "ewar.deviceSnapshotFailed"; // the device_snapshot_key whose snapshot failed here

/** backend: the page's (local-store.js, pageBackend), made by the engine's script (start.js). */
export function createLoaderStore(backend) {
  const kept = keyed(backend);
  const rememberSnapshotFile = (file) => kept.writeText(KEY_SNAPSHOT_FILE, file);
  return {
    /** The loader's path forced by a tool or a test, or null. */
    forcedLoadPath: () => kept.readText(KEY_LOAD_PATH),
    snapshotSeen: () => kept.readText(KEY_SNAPSHOT_SEEN),
    snapshotFileSeen: () => kept.readText(KEY_SNAPSHOT_FILE),
    rememberSnapshotFile,
    rememberSnapshot: (sha256, file) => {
      kept.writeText(KEY_SNAPSHOT_SEEN, sha256);
      rememberSnapshotFile(file);
    },
    deviceSnapshotFailed: () => kept.readText(KEY_DEVICE_SNAPSHOT_FAILED),
    rememberDeviceSnapshotFailure: (key) => kept.writeText(KEY_DEVICE_SNAPSHOT_FAILED, key),
  };
}
