// How the service worker marks the files it keeps in Cache Storage: the worker writes these headers, the page
// reads them (the memory snapshot's loader).

/** The sha256 the worker checked a kept file's bytes against (the build's precache list) before keeping it. */
export const CHECKED_SHA256_HEADER = "x-ewar-sha256";

/** On a gzip file the worker keeps inflated (the memory snapshot): its body is the inflated bytes. */
export const INFLATED_HEADER = "x-ewar-inflated";
