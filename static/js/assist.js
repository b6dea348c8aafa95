// The built-in solver on the page: what the Hint button and the Auto-play toggle do. The page
// loads this module on the first click of either: it is not needed to play.
//
// Auto-play feeds the solver's moves into the same input queue as the keyboard, so the board
// and its animations stay exactly as consistent as when a person plays.

import { sleep } from './api.js';
import { directionName, fill, loadStyle } from './page.js';
import { isFinished } from './state.js';

// Pause after each auto-played move has finished animating.
const PAUSES = { slow: 600, normal: 200, fast: 0 };

/** The hint's arrow on the board. */
function createArrow(el) {
  return {
    show(direction) {
      el.dataset.direction = direction;
      el.hidden = false;
    },
    hide() {
      el.hidden = true;
      delete el.dataset.direction;
    },
  };
}

/** The solver's move for the game as it is now, or null if the game moved on meanwhile. */
async function askSolver(game) {
  const before = game.getState();
  if (!before || isFinished(before)) return null;
  const answer = await game.hint(); // waits out server trouble, with the connection notice
  const now = game.getState();
  return now && now.moves === before.moves && !isFinished(now) ? answer.direction : null;
}

/** Whether the game is finished, said visibly when it is: the solver has nothing to do on it until the player goes on. */
function finished(game, { messages, notice }) {
  const state = game.getState();
  if (!isFinished(state)) return false;
  notice.flash(state.over ? messages.finished : messages.wonFinished);
  return true;
}

/** The Hint button's action; `run()` changes on every stop of auto-play, which silences a hint asked before. */
function createHint(button, { game, messages, announcer, notice, arrow, run }) {
  return async function showHint() {
    if (finished(game, { messages, notice })) return;
    const token = run();
    button.setAttribute('aria-busy', 'true');
    try {
      await game.whenIdle();
      const direction = await askSolver(game);
      if (token !== run()) return;
      if (!direction) {
        announcer.say(messages.noHint);
        return;
      }
      arrow.show(direction);
      announcer.say(fill(messages.hint, { direction: directionName(messages, direction) }));
    } catch (err) {
      console.warn('2048: no hint', err);
      announcer.say(messages.noHint);
    } finally {
      button.removeAttribute('aria-busy');
    }
  };
}

/**
 * Auto-play: the solver's moves, one after another, until stopped or the game ends. Its button
 * says Stop meanwhile (its width is kept by the style, so nothing moves).
 */
function createAutoplay({ autoplay: button, speed }, { game, api, messages, announcer, notice, arrow }) {
  const label = button.textContent;
  let playing = false;
  let run = 0; // bumped on every stop, so a loop or hint from before a stop goes quiet

  const pause = () => PAUSES[speed.querySelector('[aria-pressed="true"]')?.value] ?? PAUSES.normal;

  function stop() {
    if (!playing) return;
    playing = false;
    run += 1;
    button.textContent = label;
    announcer.say(messages.autoplayOff);
  }

  async function play(token) {
    while (playing && token === run) {
      await game.whenIdle();
      if (token !== run) return;
      const state = game.getState();
      if (!state || isFinished(state)) break;
      let direction;
      try {
        direction = await askSolver(game);
      } catch (err) {
        console.warn('2048: auto-play stopped', err);
        break;
      }
      if (token !== run) return;
      if (direction) {
        game.play(direction);
        await game.whenIdle();
        await sleep(pause());
      }
    }
    if (token === run) stop();
  }

  /** Not while the server cannot be reached (the notice says so); once started, it rides out server trouble. */
  function start() {
    if (playing || notice.down || !game.getState() || finished(game, { messages, notice })) return;
    playing = true;
    run += 1;
    api.autoplay().catch(() => {}); // the hints it asks for are counted anyway
    arrow.hide();
    button.textContent = messages.stop;
    announcer.say(messages.autoplayOn);
    play(run);
  }

  return { stop, toggle: () => (playing ? stop() : start()), run: () => run };
}

/** `elements`: the hint and autoplay buttons, the speed group and the hint's arrow (styled by assist.css). */
export async function createAssist(elements, { game, api, messages, announcer, notice }) {
  await loadStyle('assist');
  const arrow = createArrow(elements.arrow);
  const autoplay = createAutoplay(elements, { game, api, messages, announcer, notice, arrow });
  const showHint = createHint(elements.hint, { game, messages, announcer, notice, arrow, run: autoplay.run });
  game.onInput(autoplay.stop);
  game.onStateChange((state) => {
    arrow.hide();
    if (isFinished(state)) autoplay.stop();
  });
  return { showHint, toggleAutoplay: autoplay.toggle };
}
