// The player's look and motion, kept in this browser: the theme, reduced motion and the tiles'
// animation speed. Inlined in every page's <head> (its hash in the page's CSP) so that they apply
// before the first paint: no flash of another theme. The settings panel's controls (base.html)
// are filled in and heard here too, by delegation, so no page needs a module for them.
//
// On <html>: data-theme (none for "system", which follows the system's light or dark), data-motion
// ("reduce", the default when the system asks, or "full") and data-speed ("slow", "normal", "fast").
// The contrast and colour-blind themes' tiles are in themes.css (<html data-themes>: its URL),
// linked only when chosen, render-blocking, so a player of the others never downloads it.

(() => {
  const root = document.documentElement;
  const SETTINGS = ['theme', 'motion', 'speed'];
  const LOADED_STYLES = ['contrast', 'colourblind'];
  const BROWSER_COLOURS = { light: '#faf8ef', dark: '#1f1c19', contrast: '#000000' };

  const read = (name) => {
    try {
      return localStorage.getItem(`setting-${name}`) || '';
    } catch {
      return '';
    }
  };
  const write = (name, value) => {
    try {
      localStorage.setItem(`setting-${name}`, value);
    } catch {
      // no storage here: the choice lasts as long as the page
    }
  };
  const systemReduces = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

  /** The settings as kept, motion resolved against the system's wish. */
  const chosen = () => ({
    theme: read('theme') || 'system',
    motion: read('motion') || (systemReduces() ? 'reduce' : 'full'),
    speed: read('speed') || 'normal',
  });

  function linkThemes(theme) {
    if (!LOADED_STYLES.includes(theme) || document.getElementById('theme-styles')) return;
    const link = Object.assign(document.createElement('link'), { id: 'theme-styles', rel: 'stylesheet', href: root.dataset.themes });
    link.setAttribute('blocking', 'render');
    document.head.append(link);
  }

  /** The browser's own colours (its toolbar, a phone's status bar) and the manifest follow the theme. */
  function tellBrowser(theme) {
    const colour = BROWSER_COLOURS[theme];
    for (const meta of document.querySelectorAll('meta[name=theme-color]')) {
      meta.dataset.system ??= meta.content; // each for the system's light or dark (its media)
      meta.content = colour || meta.dataset.system;
    }
    const manifest = document.querySelector('link[rel=manifest]');
    if (manifest) manifest.href = `${manifest.href.replace(/&theme=\w*/, '')}${colour ? `&theme=${theme}` : ''}`;
  }

  function apply(settings) {
    for (const name of SETTINGS) root.dataset[name] = settings[name];
    if (settings.theme === 'system') delete root.dataset.theme;
    linkThemes(settings.theme);
    tellBrowser(settings.theme);
  }

  function showChoices() {
    const settings = chosen();
    for (const control of document.querySelectorAll('[data-setting]')) {
      const value = settings[control.dataset.setting];
      if (control.type === 'checkbox') control.checked = value === control.value;
      else control.value = value;
    }
  }

  apply(chosen());
  document.addEventListener('DOMContentLoaded', showChoices);
  document.addEventListener('change', (event) => {
    const control = event.target.closest('[data-setting]');
    if (!control) return;
    const { setting } = control.dataset;
    const value = control.type === 'checkbox' ? (control.checked ? control.value : 'full') : control.value;
    write(setting, value);
    apply(chosen());
  });
})();
