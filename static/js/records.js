// The game page's record menu: save the game under a name, then share its replay's link or open
// its review. The menu opens by itself when the game ends, and can be opened at any time.

import { isFinished } from './game.js';

const NAME_KEY = '2048-record-name';

function rememberedName() {
  try {
    return window.localStorage.getItem(NAME_KEY) || '';
  } catch {
    return '';
  }
}

function rememberName(name) {
  try {
    window.localStorage.setItem(NAME_KEY, name);
  } catch {
    // private mode or no storage: the name is simply asked again next time
  }
}

export function bindRecordMenu({ menu, form, name, result }, { game, apiRoot, messages }) {
  name.value = rememberedName();

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

  async function save() {
    await game.whenIdle(); // moves still on their way belong in the record
    const response = await fetch(`${apiRoot}/records`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ name: name.value }),
    });
    if (response.ok) return response.json();
    throw new Error(response.status === 400 ? 'badName' : response.status === 429 ? 'tooMany' : 'failed');
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const review = event.submitter && event.submitter.value === 'review';
    say(messages.saving);
    let saved;
    try {
      saved = await save();
    } catch (err) {
      say(messages[err.message] || messages.failed);
      return;
    }
    rememberName(name.value.trim());
    if (review) {
      window.location.assign(`${saved.url}#review`);
    } else {
      say(messages.shared, saved.url);
    }
  });

  game.onStateChange((state) => {
    if (isFinished(state)) menu.open = true;
  });
}
