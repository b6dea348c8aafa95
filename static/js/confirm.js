// The question before a game with moves is thrown away: the New-game dialog (controls.js loads
// this module, and it its style, when it is first needed). Escape, Keep playing or a click on the
// backdrop keep the game.

import { loadStyle } from './page.js';

/** Whether a click on a modal dialog fell on its backdrop (the backdrop's clicks are the dialog's). */
function outside(dialog, { clientX: x, clientY: y }) {
  const box = dialog.getBoundingClientRect();
  return x < box.left || x > box.right || y < box.top || y > box.bottom;
}

/** Bind the dialog's answers once its style applies; resolves to what shows it. */
export async function bindConfirm(dialog, { game, board }) {
  await loadStyle('confirm');
  dialog.addEventListener('click', (event) => {
    const choice = event.target.closest('button');
    if (choice) dialog.close(choice.value);
    else if (event.target === dialog && outside(dialog, event)) dialog.close('keep'); // the backdrop
  });
  dialog.addEventListener('close', () => {
    if (dialog.returnValue === 'new') game.newGame();
    board.focus({ preventScroll: true });
  });
  return () => {
    dialog.returnValue = '';
    dialog.showModal();
  };
}
