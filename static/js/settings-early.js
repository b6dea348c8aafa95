// The player's look and motion, applied before the first paint: this script is inlined in every
// page's <head> (its hash in the page's CSP) and puts what settings.js kept on <html>: data-theme
// (none for "system"), data-motion ("reduce", by default when the system asks, or "full") and
// data-speed ("slow", "fast"; none for normal). The high-contrast and colour-blind themes need themes.css (this
// script's data-themes), linked render-blocking only for them. It stays small, as every first load
// carries it: settings.js (data-module), which shows and keeps the choices, loads when the settings
// panel first opens, or at once when something is kept.

(() => {
  const root = document.documentElement;
  const { themes, module } = document.currentScript.dataset;
  const load = () => import(module).catch((err) => console.warn('2048: no settings', err));

  function apply() {
    let kept = {};
    try {
      kept = JSON.parse(localStorage.getItem('settings')) || {};
    } catch {
      // no storage here: the system's look
    }
    const settings = { motion: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'reduce' : '', ...kept };
    for (const name of ['theme', 'motion', 'speed']) {
      if (settings[name]) root.dataset[name] = settings[name];
      else delete root.dataset[name];
    }
    if (['contrast', 'colourblind'].includes(kept.theme) && !document.getElementById('themes')) {
      const link = Object.assign(document.createElement('link'), { id: 'themes', rel: 'stylesheet', href: themes });
      link.setAttribute('blocking', 'render');
      document.head.append(link);
    }
    return kept;
  }

  if (Object.keys(apply()).length) load();
  addEventListener('storage', apply); // kept by another window
  document.addEventListener('settings', apply); // kept by settings.js, in this one
  document.addEventListener('toggle', load, { capture: true, once: true });
})();
