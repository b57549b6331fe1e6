// web/common/wasm-failures.js: a failed WebAssembly instantiation under way ends the load it watches.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

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
