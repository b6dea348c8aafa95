// The settings panel (base.html's #settings): its controls show the player's choices, kept in this
// browser (localStorage's "settings", only what differs from the default), and keep each new one,
// which settings-early.js (inlined in the page) then applies at once. A chosen theme's page colour
// goes to the browser's own (its toolbar, a phone's status bar) and to the installed app's manifest.

const KEY = 'settings';
const DEFAULTS = { theme: 'system', speed: 'normal' };
const PAGE_COLOURS = { light: '#faf8ef', dark: '#1f1c19', contrast: '#000000' };

function kept() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || {};
  } catch {
    return {};
  }
}

function keep(settings) {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // no storage here: the choice lasts as long as the page
  }
}

/** The browser's colours and the manifest's (whose URL names the theme: templates/manifest.webmanifest). */
function showPageColour(doc, theme) {
  const colour = PAGE_COLOURS[theme];
  for (const meta of doc.querySelectorAll('meta[name=theme-color]')) {
    meta.dataset.system ??= meta.content; // each for the system's light or dark (its media)
    meta.content = colour || meta.dataset.system;
  }
  const manifest = doc.querySelector('link[rel=manifest]');
  const url = new URL(manifest.href);
  if (colour) url.searchParams.set('theme', theme);
  else url.searchParams.delete('theme');
  manifest.href = url;
}

/** A control's new value kept (a default as none), applied, and shown where it shows. */
function choose(doc, control) {
  const { setting } = control.dataset;
  const value = control.type === 'checkbox' ? (control.checked ? 'reduce' : 'full') : control.value;
  const settings = { ...kept(), [setting]: value };
  if (value === DEFAULTS[setting]) delete settings[setting];
  keep(settings);
  doc.dispatchEvent(new Event(KEY));
  showPageColour(doc, settings.theme);
}

/** Fill the panel's controls with the choices and keep each change; returns the unsubscribe. */
export function bindSettings(doc) {
  const settings = { ...DEFAULTS, ...kept() };
  const controls = [...doc.querySelectorAll('[data-setting]')];
  const offs = controls.map((control) => {
    if (control.type === 'checkbox') control.checked = doc.documentElement.dataset.motion === 'reduce';
    else control.value = settings[control.dataset.setting];
    const changed = () => choose(doc, control);
    control.addEventListener('change', changed);
    return () => control.removeEventListener('change', changed);
  });
  showPageColour(doc, settings.theme);
  doc.getElementById('settings').dataset.ready = 'true';
  return () => offs.forEach((off) => off());
}

// Loaded at once when something is kept, this may run before the panel is parsed.
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => bindSettings(document));
else bindSettings(document);
