// The pattern preview's plot: time in seconds along, 0-100 % up (the drive's braking below 0), the
// intended intensity, the shaped drive and the modelled felt amplitude each drawn so none hides another.
// SPDX-License-Identifier: Apache-2.0
(function (root) {
  'use strict';

  /** How each line is drawn; the legend (index.html) shows the same colour, width and dashes. */
  const LINES = [
    // Nested widths, the widest under: where they meet (a hold at full, say) each still shows, the intended
    // intensity as a pale band around the felt line, the drive's dashes on top of both.
    { key: 'intensity', label: 'intended intensity', colour: '#8fb6d1', width: 9, alpha: 0.5, dash: [] },
    { key: 'felt', label: 'felt', colour: '#86c29a', width: 4, alpha: 1, dash: [] },
    { key: 'drive', label: 'drive', colour: '#e0b870', width: 2, alpha: 1, dash: [6, 4] },
  ];

  /** A step for about `count` ticks over `span`: 1, 2 or 5 times a power of ten. */
  function niceStep(span, count) {
    const raw = span / Math.max(1, count), p = Math.pow(10, Math.floor(Math.log10(raw)));
    return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) || 10 * p;
  }

  /** The seconds as the axis writes them: "0", "2.5", "-0.3" (no trailing zeros). */
  function seconds(v) { return String(Math.round(v * 1000) / 1000); }

  /**
   * Draws `data` (the preview API's columns) on `canvas`, sized to its box on the screen; nothing for null;
   * `only`: that line alone (on the same axes). Returns what it drew (the axes' ticks and the lines'
   * styles), which the page keeps for its tests.
   */
  function draw(canvas, data, only) {
    const ratio = root.devicePixelRatio || 1;
    const w = Math.max(200, canvas.clientWidth || 720), h = Math.max(120, canvas.clientHeight || 220);
    canvas.width = Math.round(w * ratio); canvas.height = Math.round(h * ratio);
    const g = canvas.getContext('2d');
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, w, h);
    if (!data || !data.time_s || !data.time_s.length) return null;
    const t = data.time_s, n = t.length;
    const t0 = Math.min(0, t[0]), t1 = Math.max(t[n - 1], data.duration_s || 0, t0 + 0.001);
    const low = Math.min(0, ...data.drive); // braking drives below 0
    const left = 44, right = 10, top = 10, bottom = 28;
    const x = (v) => left + (w - left - right) * (v - t0) / (t1 - t0);
    const y = (v) => top + (h - top - bottom) * (1 - (v - low) / (1 - low));
    g.font = '12px system-ui, sans-serif';
    g.lineWidth = 1;
    // The scale: 0, 25, 50, 75, 100 % of full drive (intensity 1 drives the motor's full range).
    const yTicks = [];
    g.textAlign = 'right'; g.textBaseline = 'middle';
    for (const v of [0, 0.25, 0.5, 0.75, 1]) {
      g.strokeStyle = v === 0 ? '#5b6e80' : '#1e2a36';
      g.beginPath(); g.moveTo(left, y(v)); g.lineTo(w - right, y(v)); g.stroke();
      if (v === 0.25 || v === 0.75) continue;
      const label = Math.round(v * 100) + ' %';
      g.fillStyle = '#a9b6c3'; g.fillText(label, left - 6, y(v));
      yTicks.push({ label, y: y(v) });
    }
    if (low < 0) { g.fillStyle = '#a9b6c3'; g.fillText('brake', left - 6, y(low / 2)); yTicks.push({ label: 'brake', y: y(low / 2) }); }
    // Time: whole steps of seconds, 0 the breath's start (the warm-up before it, negative).
    const step = niceStep(t1 - t0, Math.max(3, Math.floor((w - left - right) / 70)));
    const xTicks = [];
    g.textAlign = 'center'; g.textBaseline = 'top';
    for (let v = Math.ceil(t0 / step) * step; v <= t1 + 1e-9; v += step) {
      g.strokeStyle = '#1e2a36';
      g.beginPath(); g.moveTo(x(v), top); g.lineTo(x(v), h - bottom); g.stroke();
      g.strokeStyle = '#5b6e80';
      g.beginPath(); g.moveTo(x(v), h - bottom); g.lineTo(x(v), h - bottom + 4); g.stroke();
      const label = seconds(v) + ' s';
      g.fillStyle = '#a9b6c3'; g.fillText(label, x(v), h - bottom + 6);
      xTicks.push({ label, x: x(v), seconds: Math.round(v * 1000) / 1000 });
    }
    const lines = [];
    for (const line of LINES) {
      const values = data[line.key];
      if (!values || (only && line.key !== only)) continue;
      g.save();
      g.globalAlpha = line.alpha; g.strokeStyle = line.colour; g.lineWidth = line.width; g.setLineDash(line.dash);
      g.lineJoin = 'round'; g.beginPath();
      values.forEach((v, i) => (i ? g.lineTo(x(t[i]), y(v)) : g.moveTo(x(t[i]), y(v))));
      g.stroke(); g.restore();
      lines.push({ key: line.key, label: line.label, colour: line.colour, width: line.width, dash: line.dash.slice(), alpha: line.alpha });
    }
    return { width: w, height: h, xTicks, yTicks, lines, seconds: [t0, t1], area: { left, right: w - right, top, bottom: h - bottom } };
  }

  root.Breath = root.Breath || {};
  root.Breath.Plot = { draw, LINES, niceStep };
})(typeof window !== 'undefined' ? window : globalThis);
