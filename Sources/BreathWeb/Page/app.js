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
  let state = {}, finished = false, baseSharpness = 0.3, dragging = false, playingFile = null;
  let steady = false; // serve --palette: a steady vibration (palette.js shapes the page for it)
  // What plays, as serve last confirmed it (`state`, `applied`): a slider a command of this page moved
  // goes back to it when serve refuses the command. A pace asked for waits for the next phase (`pacePending`).
  const effective = { intensity: null, bpm: null };
  let pacePending = null, paceId = null, sent = 0;
  const events = []; // the last events, for tests and debugging
  window.motorbreath = { schedule, events, send: (c) => send(c), drawn: null };
  let spokenPhase = null; // the phase the live region last announced

  function send(command) { link.send(command); }

  // The WebSocket, opened again when it closes (link.js); the breath's place says when it is gone.
  const url = new URL('ws', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  url.search = location.search; // the token, when the server wants one
  const link = new Breath.Link({
    url: url.toString(),
    onMessage: (e) => receive(e),
    onOpen: () => { schedule.linkOpened(); send({ command: 'patterns' }); syncClock(); },
    onState: (s) => showLink(s),
  });
  window.motorbreath.link = link;

  const pendingClock = new Map();
  let clockCount = 0;
  function syncClock() {
    const id = 'clock-' + (++clockCount);
    pendingClock.set(id, pageMs());
    send({ command: 'clock', id });
  }
  setInterval(syncClock, 2000);
  for (let i = 1; i <= 5; i++) setTimeout(syncClock, 150 * i);

  function receive(e) {
    events.push(e); if (events.length > 500) events.shift();
    if (e.event === 'clock' && pendingClock.has(e.id)) {
      schedule.clockSample(pendingClock.get(e.id), e.unix_ms, pageMs());
      pendingClock.delete(e.id);
      return;
    }
    schedule.onEvent(e);
    if (e.event === 'prepared') {
      finished = false; playingFile = null;
      steady = Breath.Palette.isPalette(e); Breath.Palette.shape(document, steady);
      if (!steady && presets && !previewing) fillPresets(presets, schedule.pattern);
    }
    if (e.event === 'patterns') fillPresets(e.patterns, schedule.pattern);
    if (e.event === 'state') {
      state = Object.assign(state, e);
      if (typeof e.bpm === 'number') effective.bpm = e.bpm;
      if (typeof e.intensity === 'number') effective.intensity = e.intensity;
      showState();
    }
    if (e.event === 'applied') {
      // Any client's change (this page's, another page's, a program's on the socket): show where it left things.
      if (e.command === 'pause' || e.command === 'resume') { state.paused = e.command === 'pause'; showState(); }
      if (e.command === 'intensity' && typeof e.value === 'number') effective.intensity = e.value;
      if (e.command === 'pace' && typeof e.bpm === 'number') {
        effective.bpm = e.bpm;
        if (pacePending !== null && Math.abs(pacePending - e.bpm) < 1e-9) pacePending = null;
        showPaceNote();
      }
      send({ command: 'state' });
    }
    if ((e.event === 'refused' || e.event === 'error') && typeof e.id === 'string') snapBack(e.id);
    if (e.event === 'file') {
      // An AHAP file plays in the breath's place (its first frame about 0.3 s after this event), then the breath again.
      playingFile = e.state === 'playing' ? { name: e.name, endsMs: pageMs() + 300 + e.duration_s * 1000 } : null;
      $('status').textContent = e.state === 'playing' ? 'playing ' + e.name : e.name + ' ' + e.state + '; the breath again';
    }
    if (e.event === 'finished') { finished = true; say('the breath has ended'); }
    if (e.event === 'error') $('status').textContent = e.message;
    if (e.event === 'refused') $('status').textContent = e.reason;
  }

  function showState() {
    if (typeof state.intensity === 'number' && document.activeElement !== $('intensity')) {
      $('intensity').value = Math.round(state.intensity * 100);
      $('intensity-out').textContent = Math.round(state.intensity * 100) + ' %';
    }
    if (typeof state.bpm === 'number' && pacePending === null) showPace(state.bpm);
    if (typeof state.sharpness_effective === 'number') baseSharpness = state.sharpness_effective - (state.sharpness || 0);
    // (The palette's level is its strength: the breath's place says it already.)
    $('strength').textContent = typeof state.strength === 'number' && !steady ? '· strength ' + Math.round(state.strength * 100) + ' %' : '';
    $('pause').textContent = state.paused ? 'Resume' : 'Pause';
    if (!dragging && typeof state.intensity === 'number' && typeof state.sharpness_effective === 'number') {
      $('dot').style.top = ((1 - state.intensity) * 100) + '%';
      $('dot').style.left = (state.sharpness_effective * 100) + '%';
    }
  }

  /** Says `words` once to a screen reader (the live region), not again while they stay the same. */
  function say(words) {
    if ($('say').textContent !== words) $('say').textContent = words;
  }

  /** The words at the breath's place while the link is not live: what happened, and what the page does about it. */
  function linkWords(s, now) {
    const retry = s.retryAt ? Math.max(0, Math.ceil((s.retryAt - now) / 1000)) : 0;
    const trying = s.name === 'connecting' || retry === 0 ? 'trying again now' : 'trying again in ' + retry + ' s';
    if (s.name === 'catching-up') return { word: 'catching up', more: 'the page was asleep; asking motorbreath serve where the breath is' };
    if (s.name === 'connecting' && !s.lostSince) return { word: 'connecting', more: 'to motorbreath serve' };
    if (finished) return { word: 'finished', more: 'motorbreath serve has ended; ' + trying };
    return { word: 'link lost', more: 'the circle has stopped: it no longer follows the motor; ' + trying };
  }

  function showLink(s) {
    const live = s.name === 'live';
    document.body.classList.toggle('offline', !live);
    // Without a link the buttons would do nothing: they say so by being off.
    for (const id of ['pause', 'finish', 'stop']) $(id).disabled = !live && s.name !== 'catching-up';
    $('status').textContent = live ? 'connected' : s.name === 'catching-up' ? 'catching up' : s.lostSince ? 'no link' : 'connecting…';
    if (!live) { spokenPhase = null; say(linkWords(s, pageMs()).word); } else showState();
  }

  function draw() {
    const now = pageMs();
    const circle = $('circle');
    const live = link.state.name === 'live';
    const s = !live || finished || state.paused || steady ? null : schedule.at(now);
    // Past the session's last cycle (the schedule runs on until serve's `finished`): the breath has ended.
    const over = s && state.cycles && s.cycle > state.cycles;
    if (!live) {
      // The link is gone (or the page just woke): the circle stops and dims, and the words say why.
      const w = linkWords(link.state, now);
      circle.style.opacity = '0.2';
      window.motorbreath.drawn = null;
      $('phase').textContent = w.word;
      $('left').textContent = '';
      $('linkword').textContent = w.more;
      $('cycle').textContent = ''; $('strength').textContent = '';
    } else if (steady && !finished) {
      // A steady vibration: no phases to count; the circle's size is its level.
      const w = Breath.Palette.words(state);
      const scale = MIN + (MAX - MIN) * w.size;
      circle.style.transform = reduced.matches ? '' : 'scale(' + scale.toFixed(4) + ')';
      circle.style.opacity = reduced.matches ? String(0.45 + 0.55 * w.size) : '';
      window.motorbreath.drawn = { pageMs: now, palette: true, scale, phase: w.phase };
      $('phase').textContent = w.phase; $('left').textContent = w.left; $('linkword').textContent = '';
      $('cycle').textContent = w.meta;
      say(w.say);
    } else if (s && !over) {
      const scale = MIN + (MAX - MIN) * s.size;
      if (reduced.matches) {
        circle.style.transform = '';
        circle.style.opacity = String(0.45 + 0.55 * (s.phase === 'inhale' || s.phase === 'hold' ? 1 : 0));
      } else {
        circle.style.transform = 'scale(' + scale.toFixed(4) + ')';
        circle.style.opacity = '';
      }
      window.motorbreath.drawn = { pageMs: now, hostMs: now + schedule.offsetMs, scale, phase: s.phase, cycle: s.cycle, progress: s.progress };
      const word = s.phase === 'hold-out' ? 'hold (out)' : s.phase;
      $('phase').textContent = word;
      $('left').textContent = Math.ceil(s.secondsLeft - 0.05).toString();
      $('linkword').textContent = '';
      const cycles = state.cycles ? ' of ' + state.cycles : '';
      $('cycle').textContent = 'cycle ' + s.cycle + cycles;
      // One announcement a phase (the seconds left change every second and are not announced).
      const key = s.cycle + ':' + word;
      if (!spokenPhase || spokenPhase !== key) { spokenPhase = key; const n = Math.round(s.secondsLeft); say(word + ', ' + n + (n === 1 ? ' second' : ' seconds')); }
    } else {
      circle.style.opacity = '';
      $('linkword').textContent = '';
      if (finished) {
        $('phase').textContent = 'finished'; $('left').textContent = ''; $('cycle').textContent = '';
      } else if (playingFile) {
        $('phase').textContent = playingFile.name;
        $('left').textContent = Math.max(0, Math.ceil((playingFile.endsMs - now) / 1000 - 0.05)).toString();
        $('cycle').textContent = 'a file, then the breath again';
      } else if (over) {
        // The last cycle's frames are out: the motor has stopped, serve's `finished` is on its way.
        $('phase').textContent = 'finished'; $('left').textContent = ''; $('cycle').textContent = 'cycle ' + state.cycles + ' of ' + state.cycles;
        circle.style.transform = reduced.matches ? '' : 'scale(' + MIN + ')';
      } else if (state.paused) {
        $('phase').textContent = 'paused';
      } else {
        $('phase').textContent = 'starting'; $('left').textContent = ''; $('cycle').textContent = '';
      }
    }
    requestAnimationFrame(draw);
  }
  requestAnimationFrame(draw);

  // Sliders: strength (intensity 0...1) and pace (breaths per minute), as the keys of `play` change them.
  $('intensity').addEventListener('input', (ev) => {
    $('intensity-out').textContent = ev.target.value + ' %';
    send({ command: 'intensity', value: ev.target.value / 100, id: 'intensity-' + (++sent) });
  });
  // Pace: - and + (a thumb's press a half breath a minute; a slider's half step was 2.2 px on a phone). It
  // takes effect at the next phase boundary (from the resume while paused): the note says so until then.
  function showPace(bpm) { $('pace-out').textContent = (+bpm).toFixed(1) + ' /min'; }
  function showPaceNote() {
    $('pace-note').textContent = pacePending === null ? ''
      : pacePending.toFixed(1) + ' /min ' + (state.paused ? 'from the resume' : 'from the next phase');
  }
  function stepPace(by) {
    const from = pacePending !== null ? pacePending : state.bpm;
    if (typeof from !== 'number') return;
    const bpm = Math.min(30, Math.max(1, Math.round((from + by) * 2) / 2));
    if (bpm === from) return;
    pacePending = bpm; paceId = 'pace-' + (++sent);
    showPace(bpm); showPaceNote();
    send({ command: 'pace', bpm, id: paceId });
  }
  $('pace-down').addEventListener('click', () => stepPace(-0.5));
  $('pace-up').addEventListener('click', () => stepPace(0.5));
  /** serve refused (or could not read) a command of this page: its control shows what plays again. */
  function snapBack(id) {
    if (id === paceId) {
      pacePending = null; showPaceNote();
      if (typeof effective.bpm === 'number') showPace(effective.bpm);
    }
    if (id.startsWith('intensity-') && typeof effective.intensity === 'number') {
      $('intensity').value = Math.round(effective.intensity * 100);
      $('intensity-out').textContent = Math.round(effective.intensity * 100) + ' %';
    }
    send({ command: 'state' }); // serve takes a refused change back: its state says what plays
  }
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
  palette.addEventListener('pointerdown', (ev) => { dragging = true; palette.setPointerCapture(ev.pointerId); paletteAt(ev); });
  palette.addEventListener('pointerup', () => { dragging = false; });
  palette.addEventListener('pointercancel', () => { dragging = false; });
  palette.addEventListener('pointermove', (ev) => { if (ev.buttons || ev.pointerType === 'touch') paletteAt(ev); });
  // The keyboard: the arrows move the dot by 5 % (up/down intensity, right/left sharpness), as a finger would.
  // Steps go from where the keys left the dot while they are being pressed (a `state` answer may still
  // carry the value before the last step), else from the values serve last reported.
  let keyPad = null;
  palette.addEventListener('keydown', (ev) => {
    const step = { ArrowUp: [0, 0.05], ArrowDown: [0, -0.05], ArrowRight: [0.05, 0], ArrowLeft: [-0.05, 0] }[ev.key];
    if (!step) return;
    ev.preventDefault();
    const now = performance.now();
    const from = keyPad && now - keyPad.at < 2000 ? keyPad
      : { x: typeof state.sharpness_effective === 'number' ? state.sharpness_effective : baseSharpness,
          y: typeof state.intensity === 'number' ? state.intensity : 1 };
    const x = Math.min(1, Math.max(0, Math.round((from.x + step[0]) * 100) / 100));
    const y = Math.min(1, Math.max(0, Math.round((from.y + step[1]) * 100) / 100));
    keyPad = { x, y, at: now };
    $('dot').style.left = (x * 100) + '%'; $('dot').style.top = ((1 - y) * 100) + '%';
    queued = { intensity: Math.round(y * 1000) / 1000, sharpness: Math.round((x - baseSharpness) * 1000) / 1000 };
    flush();
  });

  // The preview: a preset or a dropped AHAP, .haptic or .hjif file, rendered by the server as `render` renders
  // it; files.js keeps the .haptic and .hjif Export links beside Export AHAP.
  const token = new URLSearchParams(location.search).get('token');
  const api = (path, query) => {
    const q = new URLSearchParams(query || {});
    if (token) q.set('token', token);
    return path + '?' + q.toString();
  };
  let previewing = null; // {kind: 'preset', name} or {kind: 'ahap', bytes}
  // The plot (plot.js): seconds along, 0-100 % up, a legend naming each line; drawn again at a new size.
  let plotted = null;
  function plot(data) { plotted = data; window.motorbreath.plot = Breath.Plot.draw($('plot'), data); }
  window.addEventListener('resize', () => { if (plotted) plot(plotted); });
  // Only the newest preview request is shown: a preset's answer that lands after a file was dropped is old.
  let previewAsked = 0;
  async function showPreview(response, asked) {
    const text = await response.text();
    if (asked !== previewAsked) return false;
    if (!response.ok) {
      // Nothing to show or play: the old plot goes, and Play and Export are off until a good pattern comes.
      plot(null);
      $('play').disabled = true; previewing = null;
      $('export').removeAttribute('href'); $('export').setAttribute('aria-disabled', 'true');
      $('preview-note').textContent = text.trim(); window.motorbreath.preview = { error: text.trim() };
      Breath.exportLinks(null, api);
      return false;
    }
    $('export').removeAttribute('aria-disabled');
    const data = JSON.parse(text);
    plot(data);
    $('preview-note').textContent = '· ' + data.name + ', ' + data.duration_s.toFixed(1) + ' s on ' + data.motor;
    window.motorbreath.preview = data;
    return true;
  }
  function previewPreset(name) {
    previewing = { kind: 'preset', name };
    $('play').disabled = false;
    $('export').href = api('api/ahap', { pattern: name });
    $('export').setAttribute('download', name + '.ahap');
    const asked = ++previewAsked;
    fetch(api('api/preview', { pattern: name })).then((r) => showPreview(r, asked));
    Breath.exportLinks({ pattern: name }, api);
  }
  async function previewFile(file) {
    const bytes = await file.arrayBuffer();
    previewing = { kind: 'ahap', bytes, name: file.name };
    $('play').disabled = false;
    const asked = ++previewAsked;
    if (await showPreview(await fetch(api('api/preview'), { method: 'POST', body: bytes }), asked) === false) return;
    Breath.exportLinks({ bytes, name: file.name }, api);
    const ahap = await fetch(api('api/ahap'), { method: 'POST', body: bytes });
    if (ahap.ok) {
      const text = await ahap.text();
      window.motorbreath.exported = text;
      $('export').href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
      $('export').setAttribute('download', file.name.replace(/\.[^.]*$/, '') + '.ahap');
    }
  }
  $('preset').addEventListener('change', (ev) => previewPreset(ev.target.value));
  $('ahap').addEventListener('change', (ev) => { if (ev.target.files[0]) previewFile(ev.target.files[0]); });
  const drop = $('drop');
  drop.addEventListener('dragover', (ev) => { ev.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (ev) => {
    ev.preventDefault(); drop.classList.remove('over');
    if (ev.dataTransfer.files[0]) previewFile(ev.dataTransfer.files[0]);
  });
  $('play').addEventListener('click', () => {
    if (previewing && previewing.kind === 'preset') send({ command: 'pattern', pattern: previewing.name, at: 'now' });
    // A file plays in the breath's place (POST /api/play), then the breath starts again.
    if (previewing && previewing.kind === 'ahap') {
      fetch(api('api/play', { name: previewing.name }), { method: 'POST', body: previewing.bytes })
        .then(async (r) => { const line = (await r.text()).trim(); window.motorbreath.played = { status: r.status, line }; $('status').textContent = line; });
    }
  });
  let presets = null; // the presets serve listed, shown once serve says what plays (not for the palette)
  function fillPresets(list, current) {
    presets = list;
    if (steady || !schedule.pattern) return;
    const select = $('preset');
    const names = list.map((p) => p.name);
    if (current && !names.includes(current)) names.unshift(current);
    select.innerHTML = '';
    for (const n of names) { const o = document.createElement('option'); o.value = o.textContent = n; select.appendChild(o); }
    select.value = current || names[0];
    if (!previewing) previewPreset(select.value);
  }

  link.start();
})();
