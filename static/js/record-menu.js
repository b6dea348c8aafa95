// The game page's record menu: save the game under a name, then share its replay's link (listed in
// the hall of fame, or a link only) or open its review. controls.js loads this module when the menu
// first opens (by hand, or as the game ends).

import { pageData } from './page.js';
import { createRecordsApi } from './records-api.js';
import { handOver } from './share.js';
import { read, write } from './storage.js';

const NAME_KEY = '2048-record-name';

/** The name the player last saved a record under, '' when none (the daily page's form uses it too). */
export const loadRecordName = () => read(NAME_KEY) || '';

export const saveRecordName = (name) => write(NAME_KEY, name);

/**
 * `menu`: the page's <details> holding the name form and a status line; `messages` has its texts
 * (shared, sharedUnlisted, failed). Its `save(action)` saves the game, then shows the link ("share",
 * listed; "share-unlisted", a link only) or opens the review ("review"); controls.js calls it for the
 * menu's buttons, pressed before this module loaded too.
 */
export function createRecordMenu(menu, { game, messages }) {
  const api = createRecordsApi(pageData().apiRoot);
  const form = menu.querySelector('form');
  const name = form.querySelector('input');
  const result = menu.querySelector('[role=status]');
  if (!name.value) name.value = loadRecordName(); // unless typed while this module loaded

  function say(text, link) {
    result.replaceChildren(text);
    if (link) {
      const a = document.createElement('a');
      a.href = link;
      a.dataset.testid = 'record-link';
      a.textContent = new URL(link, window.location.href).href;
      result.append(' ', a);
    }
  }

  async function post(listed) {
    await game.whenIdle(); // moves still on their way belong in the record
    return api.saveRecord(name.value, listed);
  }

  async function save(action) {
    if (!form.reportValidity()) return;
    say('');
    const unlisted = action === 'share-unlisted';
    let saved;
    try {
      saved = await post(!unlisted);
    } catch {
      say(messages.failed);
      return;
    }
    saveRecordName(name.value.trim());
    if (action === 'review') {
      window.location.assign(`${saved.url}#review`);
    } else {
      say(unlisted ? messages.sharedUnlisted : messages.shared, saved.url);
      const url = new URL(saved.url, window.location.href).href;
      if (await handOver({ url }) === 'copied') result.append(' ', messages.copied);
    }
  }

  return { save };
}
