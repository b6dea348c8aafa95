// The question before a game with moves is thrown away: the New-game dialog, made here from the
// page's texts (controls.js loads this module, and it its style, when it is first needed, so the
// page's first load carries neither). Escape, Keep playing or a click on the backdrop keep the game.

import { loadStyle } from './page.js';

/** Whether a click on a modal dialog fell on its backdrop (the backdrop's clicks are the dialog's). */
function outside(dialog, { clientX: x, clientY: y }) {
  const box = dialog.getBoundingClientRect();
  return x < box.left || x > box.right || y < box.top || y > box.bottom;
}

/** The dialog in `doc`: the question (`messages.confirmNew`), Keep playing and New game (`label`). */
function makeDialog(doc, messages, label) {
  const make = (tag, props) => Object.assign(doc.createElement(tag), props);
  const button = (value, textContent) => make('button', { type: 'button', className: 'button', value, textContent });
  const dialog = make('dialog', { className: 'confirm', id: 'confirm-new-game' });
  const question = make('p', { id: 'confirm-text', textContent: messages.confirmNew });
  dialog.setAttribute('aria-labelledby', question.id);
  dialog.append(question, Object.assign(button('keep', messages.keepGame), { autofocus: true }), button('new', label));
  doc.body.append(dialog);
  return dialog;
}

/**
 * Make the dialog (the New game `button`'s) and bind its answers once its style applies; resolves to
 * what shows it. `newGame()` starts the new game.
 */
export async function bindConfirm(button, { newGame, board, messages }) {
  await loadStyle('confirm');
  const dialog = makeDialog(button.ownerDocument, messages, button.textContent);
  dialog.addEventListener('click', (event) => {
    const choice = event.target.closest('button');
    if (choice) dialog.close(choice.value);
    else if (event.target === dialog && outside(dialog, event)) dialog.close('keep'); // the backdrop
  });
  dialog.addEventListener('close', () => {
    if (dialog.returnValue === 'new') newGame();
    board.focus({ preventScroll: true });
  });
  return () => {
    dialog.returnValue = '';
    dialog.showModal();
  };
}
