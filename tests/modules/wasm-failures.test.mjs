// web/common/wasm-failures.js: a failed WebAssembly instantiation under way ends the load it watches; host.js's
// startPyodide then loads once more, once.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { startPyodide } from "../../web/common/host.js";
import { failingWithWasm, WasmInstantiationError } from "../../web/common/wasm-failures.js";

// The smallest module there is: the magic number and the version.
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
const wasm = (bytes) => new Response(bytes, { headers: { "content-type": "application/wasm" } });

describe("failingWithWasm", () => {
  test("a load whose instantiation fails rejects with the browser's error as its cause", async () => {
    const never = new Promise(() => {});
    const watched = failingWithWasm(never);
    await assert.rejects(WebAssembly.instantiateStreaming(wasm(EMPTY_MODULE.slice(0, 6))), WebAssembly.CompileError);
    const error = await watched.then(
      () => null,
      (failure) => failure,
    );
    assert.ok(error instanceof WasmInstantiationError, String(error));
    assert.ok(error.cause instanceof WebAssembly.CompileError);
    assert.match(error.message, /could not be instantiated/);
  });

  test("a download that never came rejects it too", async () => {
    const watched = failingWithWasm(new Promise(() => {}));
    const gone = Promise.reject(new TypeError("Failed to fetch"));
    await assert.rejects(WebAssembly.instantiateStreaming(gone), TypeError);
    await assert.rejects(
      watched,
      (error) => error instanceof WasmInstantiationError && error.cause.message === "Failed to fetch",
    );
  });

  test("instantiation answers as before, and a load resolves as it does", async () => {
    const watched = failingWithWasm(Promise.resolve("loaded"));
    const { instance, module } = await WebAssembly.instantiateStreaming(wasm(EMPTY_MODULE));
    assert.ok(instance instanceof WebAssembly.Instance && module instanceof WebAssembly.Module);
    assert.equal(await watched, "loaded");
  });

  test("a failure after the load has settled touches it no more", async () => {
    const watched = failingWithWasm(Promise.resolve("loaded"));
    assert.equal(await watched, "loaded");
    await assert.rejects(WebAssembly.instantiateStreaming(wasm(EMPTY_MODULE.slice(0, 4))));
    assert.equal(await watched, "loaded");
  });

  test("the load's own failure is passed on as it is", async () => {
    const own = new Error("Program terminated with exit(1)");
    await assert.rejects(failingWithWasm(Promise.reject(own)), (error) => error === own);
  });
});

/** A stand-in for loadPyodide whose n-th call does what `calls[n]` says: "cut" (its instantiation fails and it never
 * settles, as Pyodide's), "broken" (it rejects on its own), or a value it resolves to. */
function fakeLoadPyodide(calls) {
  const seen = [];
  const load = (options) => {
    const what = calls[seen.length];
    seen.push(options);
    if (what === "cut") {
      WebAssembly.instantiateStreaming(wasm(EMPTY_MODULE.slice(0, 5))).catch(() => {});
      return new Promise(() => {});
    }
    if (what === "broken") return Promise.reject(new Error("Program terminated with exit(1)"));
    return Promise.resolve(what);
  };
  return { load, seen };
}

describe("startPyodide", () => {
  test("a runtime whose WebAssembly failed once is loaded once more, with the same options", async () => {
    const { load, seen } = fakeLoadPyodide(["cut", "runtime"]);
    assert.equal(await startPyodide(load, { indexURL: "x/" }), "runtime");
    assert.deepEqual(seen, [{ indexURL: "x/" }, { indexURL: "x/" }]);
  });

  test("twice failed, it is given up with the WasmInstantiationError", async () => {
    const { load, seen } = fakeLoadPyodide(["cut", "cut", "runtime"]);
    await assert.rejects(startPyodide(load, {}), WasmInstantiationError);
    assert.equal(seen.length, 2);
  });

  test("any other failure is not tried again", async () => {
    const { load, seen } = fakeLoadPyodide(["broken", "runtime"]);
    await assert.rejects(startPyodide(load, {}), /exit\(1\)/);
    assert.equal(seen.length, 1);
  });
});
