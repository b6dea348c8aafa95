// What the daily page works out on its own, with no page around it: the days in a row played
// (kept in this browser), the text a share gives (nothing of the day's tiles), the countdown.

const DAYS_KEY = 'daily:days';
const KEPT_DAYS = 400;
const DAY_MS = 86400000;

const dayNumber = (day) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** The days (YYYY-MM-DD) this browser finished a game of, oldest first. */
export function playedDays() {
  try {
    const days = JSON.parse(window.localStorage.getItem(DAYS_KEY));
    return Array.isArray(days) ? days.filter((day) => typeof day === 'string' && Number.isFinite(dayNumber(day))) : [];
  } catch {
    return [];
  }
}

/** Keep `day` among the days played (once). */
export function markPlayed(day) {
  const days = playedDays();
  if (days.includes(day)) return days;
  const kept = [...days, day].sort().slice(-KEPT_DAYS);
  try {
    window.localStorage.setItem(DAYS_KEY, JSON.stringify(kept));
  } catch {
    // no storage: the streak is not kept
  }
  return kept;
}

/**
 * The run of days in a row played up to `today` (still alive while yesterday was played and today
 * not yet), and the longest run ever: {current, longest}.
 */
export function streaks(days, today) {
  const numbers = [...new Set(days.map(dayNumber))].sort((a, b) => a - b);
  let longest = 0;
  let run = 0;
  numbers.forEach((number, index) => {
    run = index && number === numbers[index - 1] + 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
  });
  const last = numbers[numbers.length - 1];
  const alive = last === dayNumber(today) || last === dayNumber(today) - 1;
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
