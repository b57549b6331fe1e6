// Looks up every visible string in the language's catalog, formats numbers and dates with Intl, sets <html lang dir>.

export const LANGUAGES = ["en", "fr", "ko", "vi", "ur"];
const DEFAULT_LANGUAGE = "en";
const RTL_LANGUAGES = new Set(["ar", "fa", "he", "ur"]);

let catalog = {};
let fallback = {}; // English, for any key a catalog lacks: never a blank, always a warning
let language = DEFAULT_LANGUAGE;
let numberFormat = new Intl.NumberFormat(DEFAULT_LANGUAGE);
let twoDigits = new Intl.NumberFormat(DEFAULT_LANGUAGE, { minimumIntegerDigits: 2 });
let pluralRules = new Intl.PluralRules(DEFAULT_LANGUAGE);
let percentFormat = new Intl.NumberFormat(DEFAULT_LANGUAGE, { style: "percent", maximumFractionDigits: 0 });
const missing = new Set();

function supported(tag) {
  const base = String(tag ?? "")
    .trim()
    .toLowerCase()
    .split(/[-_]/)[0];
  return LANGUAGES.includes(base) ? base : null;
}

/** ?lang=xx in the page's address, if it names a language we have. */
export function requestedLanguage(search = globalThis.location?.search ?? "") {
  return supported(new URLSearchParams(search).get("lang"));
}

/**
 * The language to show: ?lang= first, then the one chosen in the picker (stored),
 * then the first of the browser's languages we have (by primary subtag), else English.
 */
export function chooseLanguage(stored, browserLanguages = navigator.languages || [], requested = requestedLanguage()) {
  for (const tag of [requested, stored, ...browserLanguages]) {
    const code = supported(tag);
    if (code) return code;
  }
  return DEFAULT_LANGUAGE;
}

async function fetchCatalog(code) {
  const response = await fetch(new URL(`i18n/${code}.json`, document.baseURI));
  if (!response.ok) throw new Error(`i18n/${code}.json: HTTP ${response.status}`);
  return response.json();
}

export async function loadLanguage(code) {
  const wanted = supported(code) ?? DEFAULT_LANGUAGE;
  const needFallback = wanted !== DEFAULT_LANGUAGE && !Object.keys(fallback).length;
  const [main, english] = await Promise.all([
    fetchCatalog(wanted),
    needFallback ? fetchCatalog(DEFAULT_LANGUAGE).catch(() => ({})) : null,
  ]);
  catalog = main;
  if (wanted === DEFAULT_LANGUAGE) fallback = main;
  else if (english) fallback = english;
  language = wanted;
  numberFormat = new Intl.NumberFormat(wanted);
  twoDigits = new Intl.NumberFormat(wanted, { minimumIntegerDigits: 2, useGrouping: false });
  pluralRules = new Intl.PluralRules(wanted);
  percentFormat = new Intl.NumberFormat(wanted, { style: "percent", maximumFractionDigits: 0 });
  document.documentElement.lang = wanted;
  document.documentElement.dir = RTL_LANGUAGES.has(wanted) ? "rtl" : "ltr";
}

export function currentLanguage() {
  return language;
}

export function missingKeys() {
  return [...missing];
}

// Numbers any text may quote without its caller passing them: the engine's ({strikes}, {win_base}...) and the
// name rules' ({name_max}), given by the composition root (setSharedParams). A call's own params win.
let shared = {};

/** Adds numbers every text may quote ({name} placeholders), e.g. {strikes: 3}. */
export function setSharedParams(params) {
  shared = { ...shared, ...params };
}

/** t("cards", {count: 3}) picks "cards.other"; {name} placeholders are filled, numbers formatted. */
export function t(key, params = {}) {
  const all = { ...shared, ...params };
  const template = lookup(key, all.count);
  return template.replace(/\{(\w+)\}/g, (whole, name) => formatParam(all[name], whole));
}

/** "jack of clubs: …" -> "Jack of clubs: …": a sentence's first letter in the page language's capitals. */
export function sentenceStart(text) {
  return text.charAt(0).toLocaleUpperCase(language) + text.slice(1);
}

function warnMissing(key) {
  if (missing.has(key)) return;
  missing.add(key);
  console.warn(`i18n: missing key ${key} (${language})`);
}

function lookup(key, count) {
  if (typeof count === "number") {
    const category = pluralRules.select(count);
    const plural = catalog[`${key}.${category}`] ?? catalog[`${key}.other`];
    if (plural !== undefined) return plural;
    const english =
      fallback[`${key}.${new Intl.PluralRules(DEFAULT_LANGUAGE).select(count)}`] ?? fallback[`${key}.other`];
    if (english !== undefined) {
      warnMissing(`${key}.other`);
      return english;
    }
  }
  if (catalog[key] !== undefined) return catalog[key];
  warnMissing(key);
  return fallback[key] ?? key;
}

function formatParam(value, fallbackText) {
  if (value === undefined || value === null) return fallbackText;
  if (typeof value === "number") return numberFormat.format(value);
  return String(value);
}

export function formatNumber(value) {
  return numberFormat.format(value);
}

/** 73 -> "73%", "73 %" (French), "%73" (Turkish)...: a whole percentage as the language writes it. */
export function formatPercent(value) {
  return percentFormat.format(value / 100);
}

/** 50, 99 -> "50–99" ("50-99", "50 ~ 99"...): a range of numbers as the language writes it; one number alone. */
export function formatRange(from, to) {
  if (from === to) return numberFormat.format(from);
  if (typeof numberFormat.formatRange === "function") return numberFormat.formatRange(from, to);
  return `${numberFormat.format(from)}–${numberFormat.format(to)}`;
}

/** "−40": a minus sign (U+2212) and the number (kept left to right in Urdu by the CSS of where it is shown). */
export function formatMinus(value) {
  return value ? `−${numberFormat.format(value)}` : numberFormat.format(0);
}

// The date styles the page writes. A DateTimeFormat costs about a millisecond to make and the board writes a
// date per tab and per chart: one is made per language and style, on first use.
const DATE_STYLES = {
  date: { dateStyle: "medium", timeZone: "UTC" },
  dayMonth: { month: "short", day: "numeric", timeZone: "UTC" },
  dateTime: { dateStyle: "medium", timeStyle: "short" },
};
const dateFormats = new Map();

function dateFormat(style) {
  const key = `${language} ${style}`;
  if (!dateFormats.has(key)) dateFormats.set(key, new Intl.DateTimeFormat(language, DATE_STYLES[style]));
  return dateFormats.get(key);
}

/** "2026-11-30" (a UTC calendar day) -> "30 nov. 2026", "2026. 11. 30." ... */
export function formatDate(isoDay) {
  const time = Date.parse(`${isoDay}T00:00:00Z`);
  if (Number.isNaN(time)) return String(isoDay ?? "");
  return dateFormat("date").format(time);
}

/** "2026-11-30" -> "Nov 30", "30 nov.", "11월 30일"...: a UTC day, short, without its year. */
export function formatDayMonth(isoDay) {
  const time = Date.parse(`${isoDay}T00:00:00Z`);
  if (Number.isNaN(time)) return String(isoDay ?? "");
  return dateFormat("dayMonth").format(time);
}

/** A moment (Date or ms) as a local date and time, in the language: "30 Nov 2026, 14:05". */
export function formatDateTime(moment) {
  return dateFormat("dateTime").format(moment);
}

/** 83_456 ms -> "1:23" (the separator comes from nowhere language-specific: digits are localised). */
export function formatClock(ms) {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  return `${numberFormat.format(Math.floor(seconds / 60))}:${twoDigits.format(seconds % 60)}`;
}

/** 18_753_000 ms -> "5:12:33": hours, minutes and seconds, for a countdown. */
export function formatCountdown(ms) {
  const seconds = Math.ceil(Math.max(0, ms) / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return `${numberFormat.format(hours)}:${twoDigits.format(minutes)}:${twoDigits.format(seconds % 60)}`;
}

/**
 * Fills every [data-i18n], [data-i18n-label] and [data-i18n-placeholder] under root. An element with
 * data-i18n-count="<shared number>" is counted by that number (plural keys), and keeps its text until it is known;
 * data-i18n-count="<digits>" counts by that number itself (the empty table's "0 cards").
 */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    const countedBy = el.dataset.i18nCount;
    const count = /^\d+$/.test(countedBy ?? "") ? Number(countedBy) : shared[countedBy];
    if (countedBy === undefined) el.textContent = t(el.dataset.i18n);
    else if (count !== undefined) el.textContent = t(el.dataset.i18n, { count });
  }
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  document.title = t("app.title");
}
