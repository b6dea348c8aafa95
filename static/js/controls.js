// The game page's buttons and windows: what each does, bound as input.js binds keys, each bind*
// returning its own unsubscribe. Hint and Auto-play, the record menu, Undo and the New-game
// question load their modules (assist.js, record-menu.js, undo.js, confirm.js) on first use: they are
// not needed to play.

import { bindActionKeys } from './input.js';
import { loadOnce } from './page.js';
import { isFinished } from './state.js';

/** addEventListener, returning its removal. */
function listen(target, type, handler, options) {
  target.addEventListener(type, handler, options);
  return () => target.removeEventListener(type, handler, options);
}

const together = (...offs) => () => offs.forEach((off) => off());

/**
 * `buttons` marked aria-disabled (still focusable: pressed, they say why) while the server cannot
 * be reached (`notice` says so) or `test(state)` holds: each of them needs the server.
 */
function disabledWhile({ game, notice }, buttons, test = () => false) {
  let state = null;
  const mark = () => {
    for (const button of buttons) button.setAttribute('aria-disabled', String(notice.down || (!!state && test(state))));
  };
  return together(
    game.onStateChange((confirmed) => {
      state = confirmed;
      mark();
    }),
    notice.watch(mark),
  );
}

/** `action`, unless the server cannot be reached: then the notice under the board already says why nothing happens. */
const whileReachable = (notice, action) => (...args) => (notice.down ? undefined : action(...args));

/** New game (`newGame()`), asked first (confirm.js, loaded then) when it would throw away a game with moves. */
function bindNewGame(button, { game, newGame, board, notice, messages }) {
  const confirm = lazily(() => import('./confirm.js').then((m) => m.bindConfirm(button, { newGame, board, messages })), notice);
  const ask = onLoaded(confirm, (showDialog) => showDialog());
  return together(
    listen(button, 'click', whileReachable(notice, () => (game.inProgress() ? ask() : newGame()))),
    disabledWhile({ game, notice }, [button]),
  );
}

/** The size of the next new game (`select`), as last chosen in this browser. */
function bindSize(select, storage) {
  const kept = storage.read('boardSize');
  if ([...select.options].some((option) => option.value === kept)) select.value = kept;
  return listen(select, 'change', () => storage.write('boardSize', select.value));
}

/**
 * Undo, by its button or keys (input.js): marked aria-disabled while the page knows there is
 * nothing to take back (no move yet, or the server said so); undo.js does the rest, loaded on first use.
 */
function bindUndo(doc, button, { game, messages, notice }) {
  const undo = onLoaded(lazily(() => import('./undo.js'), notice), (m) => m.undo(button, { game, messages, notice }));
  return together(
    listen(button, 'click', undo),
    bindActionKeys(doc, (action) => action === 'undo' && undo()),
    disabledWhile({ game, notice }, [button], (state) => state.moves === 0),
  );
}

/** Focus rings are drawn for keyboard players only (style.css reads data-input). */
function bindInputMode(doc) {
  const { dataset } = doc.documentElement;
  return together(
    listen(doc, 'pointerdown', (event) => {
      dataset.input = event.pointerType;
    }, true),
    listen(doc, 'keydown', () => {
      dataset.input = 'keyboard';
    }, true),
  );
}

/** Toggle buttons of which one is pressed (they take no arrow keys, unlike a menu). */
const bindChoice = (group) => listen(group, 'click', (event) => {
  const chosen = event.target.closest('button');
  if (!chosen) return;
  for (const button of group.querySelectorAll('button')) button.setAttribute('aria-pressed', String(button === chosen));
});

/**
 * A module's part, loaded on first use: `load()` resolves to it, loading it once. A load that
 * failed (the server was unreachable) is tried again on the next use, and `notice` says why
 * nothing happened this time.
 */
function lazily(load, notice) {
  return loadOnce(() => load().catch((err) => {
    notice.flash();
    throw err;
  }));
}

/** Run `action` on the lazily loaded part; a failed load was already told. */
const onLoaded = (part, action) => () => part().then(action, (err) => console.warn('2048: not loaded', err));

/**
 * Hint and Auto-play (`buttons`: hint, autoplay, speed, arrow); `assist`: createAssist's collaborators.
 * Both are marked aria-disabled while the game cannot move (it is finished; a press then says why)
 * or the server cannot be reached.
 */
function bindSolver(buttons, assist) {
  const solver = lazily(() => import('./assist.js').then((m) => m.createAssist(buttons, assist)), assist.notice);
  const { notice } = assist;
  return together(
    listen(buttons.hint, 'click', whileReachable(notice, onLoaded(solver, (a) => a.showHint()))),
    listen(buttons.autoplay, 'click', onLoaded(solver, (a) => a.toggleAutoplay())), // Stop works offline too
    disabledWhile(assist, [buttons.hint, buttons.autoplay], isFinished),
  );
}

/** Share or review: the menu loads record-menu.js when it first opens, and opens when the game ends. */
function bindRecordMenu(menu, records) {
  const recordMenu = lazily(() => import('./record-menu.js').then((m) => m.createRecordMenu(menu, records)), records.notice);
  return together(
    // Opening the menu loads it; a button pressed (or Enter in the name field) while it loads is
    // answered once it has.
    listen(menu, 'toggle', onLoaded(recordMenu, () => {})),
    listen(menu, 'click', (event) => {
      const button = event.target.closest('button[data-action]');
      if (button) onLoaded(recordMenu, (m) => m.save(button.dataset.action))();
    }),
    listen(menu, 'submit', (event) => {
      event.preventDefault();
      onLoaded(recordMenu, (m) => m.save('share'))();
    }),
    records.game.onStateChange((state) => {
      if (isFinished(state)) menu.open = true;
    }),
    // The overlay's Share: the menu, which says what sharing does and offers a link only, the focus
    // in its name field (the name kept from last time, or to type).
    listen(records.share, 'click', () => {
      menu.open = true;
      menu.querySelector('input').focus();
    }),
  );
}

/**
 * Other windows of this session: when one saves a game (`onGameSaved`, storage.js's), or this one
 * comes back into view or focus, ask the server whether its game is still the one shown (no
 * polling). Coming back fires both events: the question already on its way answers the second.
 */
function bindComingBack(win, game, onGameSaved) {
  let asking = null;
  const cameBack = () => {
    asking ??= game.refresh().finally(() => {
      asking = null;
    });
  };
  return together(
    onGameSaved(() => game.refresh()),
    listen(win.document, 'visibilitychange', () => {
      if (win.document.visibilityState === 'visible') cameBack();
    }),
    listen(win, 'focus', cameBack),
  );
}

/**
 * Every control of the game page; `screen`: render.js's createScreen. After a button's action the
 * keys belong to the board again: a stray Space or Enter must not repeat it, and the arrows play;
 * a button that opens another part of the page (aria-controls) leaves the focus there.
 */
export function bindControls(doc, { game, api, messages, storage, screen }) {
  const $ = (id) => doc.getElementById(id);
  const { board, announcer, table, notice } = screen;
  const newGame = () => game.newGame(Number($('board-size').value));
  return together(
    listen($('overlay-new-game'), 'click', whileReachable(notice, newGame)),
    listen($('try-again'), 'click', whileReachable(notice, newGame)),
    disabledWhile({ game, notice }, [$('overlay-new-game'), $('try-again')]),
    listen($('keep-playing'), 'click', () => game.keepPlaying()),
    bindNewGame($('new-game'), { game, newGame, board, notice, messages }),
    bindSize($('board-size'), storage),
    game.onStateChange((state) => {
      $('goal').textContent = state.goal; // the intro names the game's winning tile
    }),
    bindUndo(doc, $('undo'), { game, messages, notice }),
    listen($('main'), 'click', (event) => {
      const button = event.target.closest('button');
      if (button && !button.hasAttribute('aria-controls')) board.focus({ preventScroll: true });
    }),
    bindInputMode(doc),
    bindChoice($('autoplay-speed')),
    listen($('read-board'), 'click', onLoaded(lazily(() => import('./spoken.js'), notice),
      (m) => announcer.say(m.describeBoard(table, messages.boardRow)))),
    bindSolver(
      { hint: $('hint'), autoplay: $('autoplay'), speed: $('autoplay-speed'), arrow: $('hint-arrow') },
      { game, api, messages, announcer, notice },
    ),
    bindRecordMenu($('record-menu'), { game, messages, notice, share: $('overlay-share') }),
    bindComingBack(doc.defaultView, game, storage.onGameSaved),
    game.onStateChange((state) => state.over && import('./past-games.js').then((m) => m.keepPastGame(state, api))),
  );
}
