// What the daily page works out on its own, with no page around it: the days in a row played
// (kept in this browser), the text a share gives (nothing of the day's tiles), the countdown.

export const DAYS_KEY = 'daily:days'; // the days whose game was finished on the day: the streak's
export const ARCHIVE_KEY = 'daily:again'; // the past days finished again from the archive
const KEPT_DAYS = 400;
const DAY_MS = 86400000;
const FORGIVEN_EVERY = 7; // one missed day in any seven does not break a streak

const dayNumber = (day) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** The days (YYYY-MM-DD) kept under `key` in this browser, oldest first. */
export function playedDays(key = DAYS_KEY) {
  try {
    const days = JSON.parse(window.localStorage.getItem(key));
    return Array.isArray(days) ? days.filter((day) => typeof day === 'string' && Number.isFinite(dayNumber(day))) : [];
  } catch {
    return [];
  }
}

/** Keep `day` among the days under `key` (once). */
export function markPlayed(day, key = DAYS_KEY) {
  const days = playedDays(key);
  if (days.includes(day)) return days;
  const kept = [...days, day].sort().slice(-KEPT_DAYS);
  try {
    window.localStorage.setItem(key, JSON.stringify(kept));
  } catch {
    // no storage: the streak is not kept
  }
  return kept;
}

/**
 * The streak up to `today` and the longest ever: {current, longest}, each counting the days played.
 * A streak goes on over one missed day, so long as the last missed day it went over is at least
 * seven days before (no seven days in a row hold two misses); it is still alive while today can
 * still keep it (today not played yet, and yesterday played or a forgivable miss).
 */
export function streaks(days, today) {
  const numbers = [...new Set(days.map(dayNumber))].sort((a, b) => a - b);
  const forgivable = (missed, lastMiss) => missed - lastMiss >= FORGIVEN_EVERY;
  let longest = 0;
  let run = 0;
  let lastMiss = -Infinity;
  numbers.forEach((number, index) => {
    const gap = index ? number - numbers[index - 1] - 1 : Infinity;
    if (gap === 0) run += 1;
    else if (gap === 1 && forgivable(number - 1, lastMiss)) {
      run += 1;
      lastMiss = number - 1;
    } else {
      run = 1;
      lastMiss = -Infinity;
    }
    longest = Math.max(longest, run);
  });
  const last = numbers[numbers.length - 1];
  const now = dayNumber(today);
  const alive = last >= now - 1 || (last === now - 2 && forgivable(now - 1, lastMiss));
  return { current: alive ? run : 0, longest };
}

// A tile's colour as a square: the share shows the board's shape, not its numbers.
const SQUARES = [[0, '⬜'], [8, '🟨'], [64, '🟧'], [512, '🟥'], [2048, '🟪'], [Infinity, '⬛']];

/** The final board as rows of coloured squares. */
export function boardSquares(board) {
  return board.map((row) => row.map((value) => (value === 0 ? SQUARES[0][1] : SQUARES.find(([top]) => value <= top)[1])).join('')).join('\n');
}

/** hh:mm:ss from a number of seconds. */
export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map((n) => String(n).padStart(2, '0')).join(':');
}
