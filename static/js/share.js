// Handing something over to the player's other apps: the system's share sheet where the browser has
// one (phones), else the clipboard; where neither works, the page shows what it would have shared.
// The record menu and the daily page import it.

/** Share `data` ({url} or {text}): 'shared' (or the player closed the sheet), 'copied', or 'shown'. */
export async function handOver(data) {
  if (navigator.share) {
    try {
      await navigator.share(data);
      return 'shared';
    } catch (err) {
      if (err.name === 'AbortError') return 'shared'; // the player closed the sheet
    }
  }
  try {
    await navigator.clipboard.writeText(data.url || data.text);
    return 'copied';
  } catch {
    return 'shown'; // no clipboard here: the page shows it
  }
}
