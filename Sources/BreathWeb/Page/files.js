// The page's pattern files beyond AHAP: the Export .haptic, .hjif and Android links beside Export AHAP, for the
// same preset or dropped file; the server writes them (POST or GET api/ahap?format=..., docs/web.md).
// SPDX-License-Identifier: Apache-2.0
(function (root) {
  'use strict';
  const formats = ['haptic', 'hjif', 'android', 'android-envelope'];
  const endings = { haptic: 'haptic', hjif: 'hjif', android: 'android.json', 'android-envelope': 'android-envelope.json' };
  let generation = 0; // a newer pattern wins over an export still being fetched for an older one

  // source: { pattern: name } for a preset, { bytes, name } for a dropped file, null for nothing to export.
  async function exportLinks(source, api) {
    const mine = ++generation;
    const exports = (root.motorbreath.exports = {});
    for (const format of formats) {
      const a = document.getElementById('export-' + format);
      if (!a) continue;
      a.removeAttribute('href'); a.setAttribute('aria-disabled', 'true');
      if (!source) continue;
      a.setAttribute('download', (source.pattern || source.name || 'pattern').replace(/\.[^.]*$/, '') + '.' + endings[format]);
      if (source.pattern) {
        a.href = api('api/ahap', { pattern: source.pattern, format }); a.removeAttribute('aria-disabled');
        continue;
      }
      const r = await fetch(api('api/ahap', { format }), { method: 'POST', body: source.bytes });
      if (mine !== generation || !r.ok) return;
      exports[format] = await r.text();
      a.href = URL.createObjectURL(new Blob([exports[format]], { type: 'application/json' }));
      a.removeAttribute('aria-disabled');
    }
  }
  root.Breath = Object.assign(root.Breath || {}, { exportLinks });
})(window);
