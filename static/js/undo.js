// Taking the last move back: what the Undo button and keys do (controls.js loads this module on
// first use), and the request, a control step of server.js's. The server keeps the last 5 moves.

/** Take the last move back and show the game before it, or say why there is nothing to take back. */
export async function undo(button, { game, messages, notice }) {
  if (button.getAttribute('aria-disabled') !== 'true' && (await game.undo()) !== 'refused') return;
  button.setAttribute('aria-disabled', 'true');
  notice.flash(messages.cannotUndo);
}

/** The request (server.js's parts; nothing else is on its way): "undone", "refused" or "resync". */
export async function undoLastMove({ game, talk, onChange, resync, queue }) {
  try {
    game.confirm(await talk.undo(game.state().moves));
  } catch (err) {
    const code = err.data && err.data.error && err.data.error.code;
    if (code === 'cannot_undo') return 'refused';
    if (code !== 'out_of_sync') throw err;
    await resync(); // the game moved on elsewhere: show it, take nothing back
    return 'resync';
  }
  queue.clear();
  onChange({ kind: 'undone' });
  return 'undone';
}
