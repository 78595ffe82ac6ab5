// The page's link to motorbreath serve: the WebSocket, opened again with back-off when it closes (the
// token kept), watched for silence (the host answers a `clock` every 2 s) and for the page's own freezes
// (a phone stops a background tab's timers), after which it catches up before it shows the breath again.
// No DOM here: the page shows `state`, the tests read it.
// SPDX-License-Identifier: Apache-2.0
(function (root) {
  'use strict';

  /**
   * The link's states: `connecting` (the first socket opening), `live` (messages coming), `silent` (open,
   * but no message for `silenceMs`: the socket is closed and opened again), `lost` (closed: the next try at
   * `retryAt`), `catching-up` (the page's timers stopped for `freezeMs` or more: live again once the host
   * answers the `state` asked for on waking). `onState` hears every change, `onMessage` every parsed event.
   */
  class Link {
    constructor(options) {
      this.url = options.url;
      this.onMessage = options.onMessage;
      this.onOpen = options.onOpen || (() => {});
      this.onState = options.onState || (() => {});
      this.now = options.now || (() => Date.now());
      this.silenceMs = options.silenceMs || 5000;
      this.freezeMs = options.freezeMs || 2000;
      this.socket = null;
      this.state = { name: 'connecting', since: this.now(), retryAt: null, tries: 0, lostSince: null };
      this.log = []; // [{name, at}] every change, for the tests
      this.lastMessage = this.now();
      this.lastTick = this.now();
      this.resyncs = 0;
    }

    /** The delay before try `n` (1, 2, ...) of an outage that began `outageMs` ago: 0.25 s doubling to 2 s, 5 s after a minute. */
    static delay(n, outageMs) {
      if (outageMs > 60000) return 5000;
      return Math.min(2000, 250 * Math.pow(2, Math.max(0, n - 1)));
    }

    set(name, extra) {
      if (this.state.name === name && !extra) return;
      this.state = Object.assign({}, this.state, { name, since: this.now() }, extra || {});
      this.log.push({ name, at: this.now() }); if (this.log.length > 200) this.log.shift();
      this.onState(this.state);
    }

    start() {
      this.open();
      setInterval(() => this.watch(), 250);
      // The page lifecycle's own word for a freeze and a thaw, where the browser gives it.
      if (typeof document !== 'undefined') document.addEventListener('resume', () => this.woke());
    }

    open() {
      let socket;
      try { socket = new WebSocket(this.url); } catch (e) { this.closed(null); return; }
      this.socket = socket;
      socket.onopen = () => {
        if (socket !== this.socket) return;
        this.lastMessage = this.now();
        this.set('live', { tries: 0, retryAt: null, lostSince: null });
        this.onOpen();
      };
      socket.onmessage = (m) => {
        if (socket !== this.socket) return;
        this.lastMessage = this.now();
        const e = JSON.parse(m.data);
        if (this.state.name === 'catching-up' && e.id === this.resyncId) this.set('live');
        this.onMessage(e);
      };
      socket.onclose = () => { if (socket === this.socket) this.closed(socket); };
    }

    /** The socket closed (or could not be made): try again after the back-off. */
    closed(socket) {
      if (socket && socket.readyState !== WebSocket.CLOSED) try { socket.close(); } catch (e) { /* already going */ }
      this.socket = null;
      const lostSince = this.state.lostSince || this.now();
      const tries = this.state.tries + 1;
      const retryAt = this.now() + Link.delay(tries, this.now() - lostSince);
      this.set('lost', { tries, retryAt, lostSince });
    }

    send(command) {
      if (this.socket && this.socket.readyState === WebSocket.OPEN) { this.socket.send(JSON.stringify(command)); return true; }
      return false;
    }

    /** After a freeze: what the page holds may be old. Ask the host where the breath is; live again at its answer. */
    woke() {
      this.lastTick = this.lastMessage = this.now();
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return;
      this.resyncs += 1;
      this.resyncId = 'resync-' + this.resyncs;
      this.set('catching-up');
      this.send({ command: 'state', id: this.resyncId });
    }

    /** Every 250 ms: a freeze (the timers stopped), silence, a retry due. */
    watch() {
      const now = this.now();
      const gap = now - this.lastTick;
      this.lastTick = now;
      if (gap >= this.freezeMs) { this.woke(); return; }
      const open = this.socket && this.socket.readyState === WebSocket.OPEN;
      if (open && now - this.lastMessage > this.silenceMs) {
        // No clock answer for a few of its intervals: the host or the network is gone without a close.
        const socket = this.socket;
        this.set('silent');
        this.closed(socket);
        return;
      }
      if (this.state.name === 'lost' && now >= this.state.retryAt) {
        this.set('connecting');
        this.open();
      }
    }
  }

  const api = { Link };
  if (typeof module !== 'undefined' && module.exports) module.exports = api; else root.Breath = Object.assign(root.Breath || {}, api);
})(this);
