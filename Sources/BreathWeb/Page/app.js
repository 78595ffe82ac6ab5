// motorbreath serve's page: the WebSocket (the control protocol, docs/control.md), the breath circle drawn
// from the planned schedule (schedule.js), the sliders and the palette square sending commands.
// SPDX-License-Identifier: Apache-2.0
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const schedule = new Breath.BreathSchedule();
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)');
  const pageMs = () => performance.timeOrigin + performance.now();
  const MIN = 0.4, MAX = 1.0;
  let socket = null, state = {}, finished = false, baseSharpness = 0.3;
  const events = []; // the last events, for tests and debugging
  window.motorbreath = { schedule, events, send: (c) => send(c), drawn: null };

  function send(command) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(command));
  }

  function connect() {
    const url = new URL('ws', location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    url.search = location.search; // the token, when the server wants one
    socket = new WebSocket(url);
    socket.onopen = () => { $('status').textContent = 'connected'; send({ command: 'patterns' }); syncClock(); };
    socket.onmessage = (m) => receive(JSON.parse(m.data));
    socket.onclose = () => {
      $('status').textContent = finished ? 'the breath has ended' : 'disconnected: reload to try again';
      socket = null;
    };
  }

  const pendingClock = new Map();
  let clockCount = 0;
  function syncClock() {
    const id = 'clock-' + (++clockCount);
    pendingClock.set(id, pageMs());
    send({ command: 'clock', id });
  }
  setInterval(() => { if (clockCount < 8 || clockCount % 1 === 0) syncClock(); }, 2000);
  for (let i = 1; i <= 5; i++) setTimeout(syncClock, 150 * i);

  function receive(e) {
    events.push(e); if (events.length > 500) events.shift();
    if (e.event === 'clock' && pendingClock.has(e.id)) {
      schedule.clockSample(pendingClock.get(e.id), e.unix_ms, pageMs());
      pendingClock.delete(e.id);
      return;
    }
    schedule.onEvent(e);
    if (e.event === 'state') { state = Object.assign(state, e); showState(); }
    if (e.event === 'applied' && (e.command === 'intensity' || e.command === 'sharpness' || e.command === 'pace')) send({ command: 'state' });
    if (e.event === 'finished') { finished = true; $('phase').textContent = 'finished'; $('left').textContent = ''; }
    if (e.event === 'error') $('status').textContent = e.message;
    if (e.event === 'refused') $('status').textContent = e.reason;
  }

  function showState() {
    if (typeof state.intensity === 'number' && document.activeElement !== $('intensity')) {
      $('intensity').value = Math.round(state.intensity * 100);
      $('intensity-out').textContent = Math.round(state.intensity * 100) + ' %';
    }
    if (typeof state.bpm === 'number' && document.activeElement !== $('pace')) {
      $('pace').value = state.bpm; $('pace-out').textContent = (+state.bpm).toFixed(1) + ' /min';
    }
    if (typeof state.sharpness_effective === 'number') baseSharpness = state.sharpness_effective - (state.sharpness || 0);
    $('strength').textContent = typeof state.strength === 'number' ? '· strength ' + Math.round(state.strength * 100) + ' %' : '';
    $('pause').textContent = state.paused ? 'Resume' : 'Pause';
  }

  function draw() {
    const now = pageMs();
    const s = finished || state.paused ? null : schedule.at(now);
    const circle = $('circle');
    if (s) {
      const scale = MIN + (MAX - MIN) * s.size;
      if (reduced.matches) {
        circle.style.transform = '';
        circle.style.opacity = String(0.45 + 0.55 * (s.phase === 'inhale' || s.phase === 'hold' ? 1 : 0));
      } else {
        circle.style.transform = 'scale(' + scale.toFixed(4) + ')';
        circle.style.opacity = '';
      }
      window.motorbreath.drawn = { pageMs: now, hostMs: now + schedule.offsetMs, scale, phase: s.phase, cycle: s.cycle, progress: s.progress };
      $('phase').textContent = s.phase === 'hold-out' ? 'hold (out)' : s.phase;
      $('left').textContent = Math.ceil(s.secondsLeft - 0.05).toString();
      const cycles = state.cycles ? ' of ' + state.cycles : '';
      $('cycle').textContent = 'cycle ' + s.cycle + cycles;
    } else if (state.paused) {
      $('phase').textContent = 'paused';
    }
    requestAnimationFrame(draw);
  }
  requestAnimationFrame(draw);

  // Sliders: strength (intensity 0...1) and pace (breaths per minute), as the keys of `play` change them.
  $('intensity').addEventListener('input', (ev) => {
    $('intensity-out').textContent = ev.target.value + ' %';
    send({ command: 'intensity', value: ev.target.value / 100 });
  });
  $('pace').addEventListener('change', (ev) => {
    $('pace-out').textContent = (+ev.target.value).toFixed(1) + ' /min';
    send({ command: 'pace', bpm: +ev.target.value });
  });
  $('pause').addEventListener('click', () => send({ command: state.paused ? 'resume' : 'pause' }));
  $('finish').addEventListener('click', () => send({ command: 'finish' }));
  $('stop').addEventListener('click', () => send({ command: 'stop' }));

  // The palette: a finger (touch, pen or mouse) sets intensity (up) and sharpness (right), the latest wins.
  const palette = $('palette');
  let lastSent = 0, queued = null;
  function paletteAt(ev) {
    const r = palette.getBoundingClientRect();
    const x = Math.min(1, Math.max(0, (ev.clientX - r.left) / r.width));
    const y = Math.min(1, Math.max(0, 1 - (ev.clientY - r.top) / r.height));
    $('dot').style.left = (x * 100) + '%'; $('dot').style.top = ((1 - y) * 100) + '%';
    queued = { intensity: Math.round(y * 1000) / 1000, sharpness: Math.round((x - baseSharpness) * 1000) / 1000 };
    flush();
  }
  function flush() {
    if (!queued) return;
    const now = performance.now();
    if (now - lastSent < 20) { setTimeout(flush, 20 - (now - lastSent)); return; }
    lastSent = now;
    send({ command: 'intensity', value: queued.intensity });
    send({ command: 'sharpness', value: Math.max(-1, Math.min(1, queued.sharpness)) });
    queued = null;
  }
  palette.addEventListener('pointerdown', (ev) => { palette.setPointerCapture(ev.pointerId); paletteAt(ev); });
  palette.addEventListener('pointermove', (ev) => { if (ev.buttons || ev.pointerType === 'touch') paletteAt(ev); });

  connect();
})();
