// The question before a game with moves is thrown away: the New-game dialog (controls.js loads
// this module when it is first needed). Escape, Keep playing or a click on the backdrop keep the game.

/** Whether a click on a modal dialog fell on its backdrop (the backdrop's clicks are the dialog's). */
function outside(dialog, { clientX: x, clientY: y }) {
  const box = dialog.getBoundingClientRect();
  return x < box.left || x > box.right || y < box.top || y > box.bottom;
}

/** Bind the dialog's answers; returns what shows it. */
export function bindConfirm(dialog, { game, board }) {
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
