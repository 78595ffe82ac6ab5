// The breath's schedule on the page: from the control protocol's events (prepared, patterns, state,
// phase, applied, clock), when each phase starts on the board's clock and on the page's clock.
// No DOM here: the page draws with it, and the tests run it under node against a simulated board.
// SPDX-License-Identifier: Apache-2.0
(function (root) {
  'use strict';

  /** The phases of a pattern: from the presets the server listed, else "in-hold-out[-holdout]" seconds. */
  function phasesOf(name, presets) {
    if (presets && presets[name]) return presets[name];
    const s = String(name).split('-').map(Number);
    if (s.length < 3 || s.some((x) => !isFinite(x))) return null;
    const kinds = ['inhale', 'hold', 'exhale', 'hold-out'];
    const out = [];
    s.forEach((sec, i) => { if (i < 4 && (sec > 0 || i % 2 === 0)) out.push({ phase: kinds[i], seconds: sec }); });
    return out;
  }

  /**
   * The planned schedule, laid out as the host's plan is: each phase starts where the one before ended
   * (its seconds x the pace's scale), on the first frame at or after that time, at that frame's board tick (ticks per frame measured from the events, nominal before),
   * and at the host's wall-clock time for that tick (from the events' unix_ms); the page's clock is mapped
   * to the host's by the `clock` exchange. Every `phase` event re-anchors it.
   */
  class BreathSchedule {
    constructor() {
      this.frameRate = 250; this.clockHz = 1e6;
      this.presets = {};
      // The pattern and pace asked for (prepared, state: a change shows there at once) and the pace playing
      // (the first state's, then each applied pace's, or a new pattern's own): a change takes effect at a
      // boundary the host picks (a pace at the next phase, a pattern at the next cycle).
      this.requested = null; this.bpm = null; this.playingBpm = null; this.paused = false;
      this.last = null; this.prev = null; // {frame, tick, unixMs, index, cycle, pattern, phases, scale, t}
      this.offsetMs = 0; this.bestRtt = Infinity; // host unix ms = page ms + offsetMs
      this.pauseAt = null;
    }

    /**
     * A link (re)opened: what was anchored came from a session that may be gone (serve killed, a new one on
     * the same port). Nothing is drawn until this link's events anchor the breath again: the greeting's
     * `prepared` and the phases after it.
     */
    linkOpened() { this.last = this.prev = this.pauseAt = null; }

    /** The pattern as last asked for. */
    get pattern() { return this.requested; }

    phasesFor(name) { return phasesOf(name, this.presets); }

    /** How much longer than written the phases `phases` play at `bpm`. */
    static scaleFor(phases, bpm) {
      if (!phases || !bpm) return 1;
      const cycle = phases.reduce((a, p) => a + p.seconds, 0);
      return cycle > 0 ? (60 / bpm) / cycle : 1;
    }

    /** Feeds one event of the control protocol (a parsed object). */
    onEvent(e) {
      switch (e.event) {
        case 'prepared':
          // A session on the board (the first, or the breath again after an AHAP file): frames count from 0.
          this.frameRate = e.frame_rate || 250;
          this.requested = e.pattern;
          this.last = this.prev = this.pauseAt = null;
          this.playingBpm = null;
          break;
        case 'file':
          if (e.state === 'playing') this.last = this.prev = this.pauseAt = null; // no breath plays
          break;
        case 'patterns':
          for (const p of e.patterns) this.presets[p.name] = p.phases;
          break;
        case 'state':
          if (e.pattern !== undefined) this.requested = e.pattern;
          if (typeof e.bpm === 'number') { this.bpm = e.bpm; if (this.playingBpm === null) this.playingBpm = e.bpm; }
          if (typeof e.paused === 'boolean') this.paused = e.paused;
          break;
        case 'phase': this.onPhase(e); break;
        case 'applied':
          if (e.command === 'pause' && this.last) this.pauseAt = { frame: e.frame, tick: e.board_tick };
          if (e.command === 'resume' && this.last && this.pauseAt) {
            // The breath goes on where the pause left it: the schedule moves by the pause's length.
            const df = e.frame - this.pauseAt.frame, dt = e.board_tick - this.pauseAt.tick;
            this.last.frame += df; this.last.tick += dt; this.last.unixMs += dt * this.msPerTick(); this.last.t += df / this.frameRate;
            this.prev = null; this.pauseAt = null;
          }
          if (e.command === 'pace') {
            this.bpm = e.bpm; this.playingBpm = e.bpm;
            // It began with the phase the last event announced: that phase plays at the new pace.
            if (this.last && e.frame === this.last.frame) this.last.scale = BreathSchedule.scaleFor(this.last.phases, e.bpm);
          }
          break;
      }
    }

    onPhase(e) {
      const phases = this.phasesFor(e.pattern) || (this.last && this.last.phases);
      if (!phases) return;
      // A new pattern plays at its own pace (it replaces a pace change).
      if (this.last && e.pattern !== this.last.pattern) this.playingBpm = 60 / phases.reduce((a, p) => a + p.seconds, 0);
      let index = Math.max(0, phases.findIndex((p) => p.phase === e.phase));
      // Two phases of one name (the sigh's two inhales): the one after the last.
      if (this.last && this.last.pattern === e.pattern) {
        const next = (this.last.index + 1) % phases.length;
        if (phases[next].phase === e.phase) index = next;
      }
      // The phase's start in breath seconds as the host's plan has it: the one this schedule predicted for
      // this frame (after a pace change, phases no longer start on whole frames), else the frame's own time.
      const predicted = this.upcoming(8).find((u) => u.frame === e.frame);
      const anchor = { frame: e.frame, tick: e.board_tick, unixMs: e.unix_ms, index, cycle: e.cycle, pattern: e.pattern, phases,
        scale: BreathSchedule.scaleFor(phases, this.playingBpm), t: predicted ? predicted.t : e.frame / this.frameRate };
      if (this.last && anchor.frame > this.last.frame) this.prev = this.last;
      this.last = anchor;
    }

    /** Board ticks per frame: from the last two phase events when they agree with the nominal within 1 %. */
    ticksPerFrame() {
      const nominal = this.clockHz / this.frameRate;
      if (this.prev && this.last && this.last.frame > this.prev.frame) {
        const m = (this.last.tick - this.prev.tick) / (this.last.frame - this.prev.frame);
        if (Math.abs(m / nominal - 1) < 0.01) return m;
      }
      return nominal;
    }

    /** Host milliseconds per board tick (the host's estimate, as the events' unix_ms show it). */
    msPerTick() {
      const nominal = 1000 / this.clockHz;
      if (this.prev && this.last && this.last.tick > this.prev.tick) {
        const m = (this.last.unixMs - this.prev.unixMs) / (this.last.tick - this.prev.tick);
        if (Math.abs(m / nominal - 1) < 0.01) return m;
      }
      return nominal;
    }

    /** The phase starts after the last event: [{frame, tick, unixMs, phase, index, cycle, seconds}], `count` of them. */
    upcoming(count) {
      const out = [];
      if (!this.last) return out;
      const tpf = this.ticksPerFrame(), mpt = this.msPerTick(), fr = this.frameRate;
      // As the host lays the plan out: each phase starts where the last ended (seconds x the pace's scale),
      // on the first frame at or after that time.
      const frameAt = (t) => Math.ceil(t * fr - 1e-9);
      const base = this.last.frame - frameAt(this.last.t);
      let { index, cycle, t, phases, pattern } = this.last;
      for (let k = 0; k <= count; k++) {
        const frame = base + frameAt(t);
        // The phase playing keeps its length; later phases of the pattern asked for play at the pace asked
        // for, those of a pattern being replaced at the pace playing.
        const scale = k === 0 ? this.last.scale
          : BreathSchedule.scaleFor(phases, pattern === this.requested || !this.requested ? this.bpm : this.playingBpm);
        const seconds = phases[index].seconds * scale;
        const tick = this.last.tick + Math.floor((frame - this.last.frame) * tpf);
        out.push({ frame, tick, unixMs: this.last.unixMs + (tick - this.last.tick) * mpt, phase: phases[index].phase,
          index, cycle, t, seconds });
        t += seconds;
        index += 1;
        if (index >= phases.length) {
          index = 0; cycle += 1;
          // A pattern asked for begins with the next cycle.
          const next = this.requested && this.requested !== pattern ? this.phasesFor(this.requested) : null;
          if (next) { phases = next; pattern = this.requested; }
        }
      }
      return out;
    }

    /** The next phase start's board tick after the last event (for the tests). */
    nextStartTick() {
      const u = this.upcoming(1);
      return u.length > 1 ? u[1].tick : null;
    }

    /** A clock exchange: the page sent at `sentMs`, the host answered `hostMs`, the answer came at `gotMs`. */
    clockSample(sentMs, hostMs, gotMs) {
      const rtt = gotMs - sentMs;
      if (rtt <= this.bestRtt * 1.5 || rtt < 5) {
        this.offsetMs = hostMs - (sentMs + gotMs) / 2;
        this.bestRtt = Math.min(this.bestRtt, rtt);
      }
    }

    /** Where the breath is at page time `pageMs`: {phase, cycle, progress 0..1, secondsLeft, size 0..1} or null. */
    at(pageMs) {
      const hostMs = pageMs + this.offsetMs;
      const starts = this.upcoming(64);
      if (starts.length < 2) return null;
      let i = 0;
      while (i + 1 < starts.length && starts[i + 1].unixMs <= hostMs) i++;
      const s = starts[i];
      const length = starts[i + 1] ? starts[i + 1].unixMs - s.unixMs : s.seconds * 1000;
      const progress = Math.min(1, Math.max(0, (hostMs - s.unixMs) / length));
      return { phase: s.phase, cycle: s.cycle, progress, secondsLeft: Math.max(0, (s.unixMs + length - hostMs) / 1000),
        size: BreathSchedule.size(s.phase, progress), startMs: s.unixMs - this.offsetMs };
    }

    /** The circle's size (0: smallest, 1: largest) in a phase at `progress`: grows on the inhale, shrinks on the exhale. */
    static size(phase, progress) {
      if (phase === 'inhale') return progress;
      if (phase === 'hold') return 1;
      if (phase === 'exhale') return 1 - progress;
      return 0;
    }
  }

  const api = { BreathSchedule, phasesOf };
  if (typeof module !== 'undefined' && module.exports) module.exports = api; else root.Breath = api;
})(this);
