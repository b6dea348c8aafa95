// What the player sees of the game and what a screen reader is told: the board, the scores
// (the best one of its size kept in this browser), the win and game-over overlay, and the announcements.

import { isFinished } from './state.js';
import { fill, loadOnce } from './page.js';

const ANNOUNCEMENTS = { new: 'newGame', restored: 'restored', kept: 'keepPlaying', undone: 'undone' };

// What confirmed moves did, told to a screen reader (spoken.js): loaded with the first key, as most
// visits' first load needs none of it.
const speaking = loadOnce(() => import('./spoken.js'));

export function createDisplay({ view, score, overlay, announcer, messages, format, storage }) {
  let size = 0; // of the game shown, and its best score
  let best = 0;
  let shownFinished = null; // the finished state the overlay was last shown for
  let heard = null; // the confirmed state the last change was told from

  /** Show or hide the overlay for `state`; returns its text when it is news. */
  function showOverlay(state) {
    if (!isFinished(state)) {
      overlay.hide();
      shownFinished = null;
      return null;
    }
    const kind = state.over && (!state.won || state.keep_playing) ? 'over' : state.over ? 'won-over' : 'won';
    const text = kind === 'over' ? messages.over : messages.win;
    const isNew = !shownFinished || shownFinished.over !== state.over;
    // A win the player can play on from has no final score yet.
    const scoreText = fill(kind === 'won' ? messages.currentScore : messages.finalScore, { score: format(state.score) });
    // This game holds the best score: it set it (a tie with an earlier best counts too).
    const newBest = state.score > 0 && state.score >= best;
    overlay.show(kind, text, newBest ? [scoreText, messages.newBest] : [scoreText]);
    shownFinished = state;
    return isNew ? text : null;
  }

  return {
    /** A key's slide (slide.js's `slid`), shown at once on the board shown (`from`: {board, score}). */
    slide(from, slid) {
      speaking().catch(() => {}); // loaded again with the next key if this fails
      if (slid.moved && !view.slide(slid.tiles)) view.show(slid.board);
      if (slid.gained > 0) {
        const points = from.score + slid.gained;
        score.update(points, Math.max(best, points), slid.gained);
      }
    },

    noMove: () => announcer.say(messages.noMove),

    /** The confirmed game changed (server.js's `event`): show `shown` ({board, score}) and tell. */
    change(event, state, shown) {
      view.show(shown.board, { replace: event.kind === 'new' });
      if (state.size !== size) {
        size = state.size;
        best = storage.loadBest(size);
      }
      if (state.score > best) {
        best = state.score;
        storage.saveBest(size, best);
      }
      score.update(shown.score, Math.max(best, shown.score));
      if (event.kind === 'moved' && heard && state.moves !== heard.moves) {
        const before = heard;
        announcer.say(speaking().then((m) => m.describeMoves({ messages, format }, before, state, event.directions)));
      }
      announcer.say(showOverlay(state) || messages[ANNOUNCEMENTS[event.kind]]);
      heard = state;
    },
  };
}
