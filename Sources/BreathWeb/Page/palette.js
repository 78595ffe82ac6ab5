// The page shaped for `motorbreath serve --palette` (a steady vibration, docs/web.md): no breath phases,
// no pace, no pattern preview; the breath's place shows the level and the sharpness the square set.
// SPDX-License-Identifier: Apache-2.0
(function (root) {
  'use strict';

  /** Whether a `prepared` event is the palette's (docs/control.md: it names the pattern `palette`). */
  function isPalette(prepared) { return !!prepared && prepared.pattern === 'palette'; }

  /** Shows or hides what a steady vibration has not (the body's `palette` class; style.css hides them). */
  function shape(doc, on) {
    doc.body.classList.toggle('palette', on);
    for (const id of ['preview', 'pace-row']) {
      const e = doc.getElementById(id);
      if (e) e.hidden = on;
    }
    const square = doc.getElementById('palette');
    if (square) square.setAttribute('aria-label', on
      ? 'The vibration: up is stronger, right is sharper; arrow keys move it'
      : 'Palette: up is stronger, right is sharper; arrow keys move it');
  }

  /** The words at the breath's place for `state` (the last `state` event, with `applied` values on it). */
  function words(state) {
    const level = typeof state.intensity === 'number' ? Math.round(state.intensity * 100) : null;
    const sharp = typeof state.sharpness_effective === 'number' ? Math.round(state.sharpness_effective * 100) : null;
    return {
      phase: state.paused ? 'paused' : 'steady',
      left: level === null ? '' : level + ' %',
      meta: sharp === null ? '' : 'sharpness ' + sharp + ' %',
      say: state.paused ? 'paused' : 'steady vibration', // once, not at every move of the square
      // The circle's size is the level (it does not breathe): 0 % the smallest, 100 % the whole stage.
      size: level === null ? 0.5 : level / 100,
    };
  }

  root.Breath = root.Breath || {};
  root.Breath.Palette = { isPalette, shape, words };
})(typeof window !== 'undefined' ? window : globalThis);
