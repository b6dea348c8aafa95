// The win / game-over overlay on the board; render.js loads it (and its style) when a game first ends.

import { loadStyle } from './page.js';

/** The win / game-over overlay on the board: what happened, the final score, and what next. */
class Overlay {
  constructor(root, [text, detail], buttons) {
    this.root = root;
    this.text = text;
    this.detail = detail;
    this.buttons = buttons; // { keepPlaying, tryAgain, newGame }
    this.kind = null;
  }

  /**
   * kind: "won" (keep playing or new game), "won-over" (new game only), "over" (try again);
   * `details`: the score and whether it is a new best, each kept on one line.
   */
  show(kind, message, details) {
    this.detail.replaceChildren(...details.flatMap((detail, i) => [
      ...(i ? [' '] : []),
      Object.assign(document.createElement('span'), { textContent: detail }),
    ]));
    if (this.kind === kind && !this.root.hidden) return;
    this.kind = kind;
    this.text.textContent = message;
    const won = kind !== 'over';
    this.root.classList.toggle('game-won', won);
    this.root.classList.toggle('game-over', !won);
    this.buttons.keepPlaying.hidden = kind !== 'won';
    this.buttons.newGame.hidden = !won;
    this.buttons.tryAgain.hidden = won;
    this.root.hidden = false;
    const first = kind === 'won' ? this.buttons.keepPlaying : won ? this.buttons.newGame : this.buttons.tryAgain;
    first.focus({ preventScroll: true });
  }

  hide() {
    if (this.root.hidden) return;
    const hadFocus = this.root.contains(document.activeElement);
    this.root.hidden = true;
    this.kind = null;
    if (hadFocus && document.activeElement && document.activeElement !== document.body) {
      document.activeElement.blur();
    }
  }

  get visible() {
    return !this.root.hidden;
  }
}

/** The overlay on `root`, once its style applies. */
export async function createOverlay(root, texts, buttons) {
  await loadStyle('overlay');
  return new Overlay(root, texts, buttons);
}
