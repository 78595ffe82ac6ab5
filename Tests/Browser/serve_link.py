#!/usr/bin/env python3
# The page when its link to motorbreath serve goes (headless Chromium at 390 x 844): serve killed with
# SIGTERM and with SIGKILL and started again on the same port and board, and the page frozen for 30 s.
# Judged on the board's clock: the sim-board's drive log says when the motor stopped and started again,
# serve's phase events say which phase the board played when; the page's words are read from its DOM.
# Prints one JSON line of measurements; exits 1 with the reason on a failed check.
# SPDX-License-Identifier: Apache-2.0
import argparse, json, os, signal, sys, tempfile, time

from browser_support import BREATH_WORDS, browser, fail, first_line, open_drawn, read_drive_log, start, stop_children, tick_at

ap = argparse.ArgumentParser()
ap.add_argument("--motorbreath", default=".build/debug/motorbreath")
ap.add_argument("--shots", default=tempfile.mkdtemp(prefix="motorbreath-shots."))
ap.add_argument("--freeze-s", type=float, default=30.0)
args = ap.parse_args()
os.makedirs(args.shots, exist_ok=True)
PATTERN = "2-1-2-1"  # 6 s cycles: a phase boundary every 1-2 s, so a stale page soon shows the wrong one

READ = """const m = window.motorbreath, c = document.getElementById('circle');
return {phase: document.getElementById('phase').textContent, more: document.getElementById('linkword').textContent,
        link: m.link.state.name, transform: c.style.transform, opacity: getComputedStyle(c).opacity,
        said: document.getElementById('say').textContent};"""


def read(d):
    """The page's breath place now, with the monotonic instant of the reading (the middle of the call)."""
    a = time.monotonic_ns()
    r = d.execute_script(READ)
    r["mono_ns"] = (a + time.monotonic_ns()) // 2
    return r


def serve_on(pty, port):
    p = start([args.motorbreath, "serve", "--port", pty, "--http-port", str(port), "--pattern", PATTERN])
    url = first_line(p, "open ").split()[1]
    return p, url, time.monotonic_ns()  # serve listens before it prints its URL


def phases_from(d):
    return [e for e in d.execute_script("return window.motorbreath.events") if e["event"] == "phase"]


def judge_phases(d, log, samples, what):
    """Every sample's phase word against the phase the board played then (serve's phase events, on the
    board's ticks); samples within 120 ms of a boundary are left out (a DOM read takes a few ms)."""
    time.sleep(2.2)  # the phase events of the sampled span come about 0.1 s after their ticks
    phases = phases_from(d)
    header, _ = read_drive_log(log)
    compared, wrong = 0, []
    for s in samples:
        tick = tick_at(header, s["mono_ns"])
        before = [e for e in phases if e["board_tick"] <= tick]
        after = [e for e in phases if e["board_tick"] > tick]
        if not before or not after or min(tick - before[-1]["board_tick"], after[0]["board_tick"] - tick) < 120_000:
            continue
        compared += 1
        if s["phase"] != BREATH_WORDS[before[-1]["phase"]]:
            wrong.append((round((tick - before[-1]["board_tick"]) / 1000), s["phase"], before[-1]["phase"]))
    if compared < 10 or wrong:
        fail("%s: the page's phase against the board's: %d compared, wrong %s" % (what, compared, wrong[:5]))
    return compared


def sample_live(d, seconds):
    samples, end = [], time.time() + seconds
    while time.time() < end:
        samples.append(read(d))
        time.sleep(0.08)
    return samples


def outage(d, serve, sig, pty, port, log, board):
    """Kills serve with `sig`: the page must say so at the breath's place within 2 s and stop the circle;
    serve started again: the page must draw the right phase within 5 s of serve's return."""
    name = signal.Signals(sig).name
    killed = time.monotonic_ns()
    serve.send_signal(sig)
    said, stills, stopped = None, [], None
    while time.monotonic_ns() - killed < 4e9:
        r = read(d)
        if stopped is None and r["phase"] not in BREATH_WORDS.values():
            stopped = r  # no breath phase shown any more (SIGTERM: serve's `finished` says so before the close)
        if r["link"] != "live" and r["phase"] in ("link lost", "finished") and "trying again" in r["more"]:
            said = r
            break
        time.sleep(0.03)
    if not said:
        fail("%s: the page did not say the link was lost within 4 s: %s" % (name, read(d)))
    serve.wait(10)
    d.save_screenshot(os.path.join(args.shots, "serve-phone-%s.png" % name.lower()))
    # While serve is gone: the circle stays where it stopped, dimmed, and no breath phase is shown.
    for _ in range(10):
        stills.append(read(d))
        time.sleep(0.1)
    if len({s["transform"] for s in stills}) != 1 or any(s["phase"] in BREATH_WORDS.values() for s in stills) \
            or any(float(s["opacity"]) > 0.35 for s in stills[3:]):
        fail("%s: the circle went on while serve was gone: %s" % (name, stills))
    header, changes = read_drive_log(log)
    kill_tick = tick_at(header, killed)
    motor_off = next((t for t, level in changes if t >= kill_tick and level == 0), None)
    if sig == signal.SIGKILL:
        # The board held (SIGSTOP) while serve starts again: serve listens, the page opens its link, and no
        # session exists yet (prepare waits for the board). Killed without `finished`, the page still holds
        # the old session's anchors: it must not draw a breath from them on the new link.
        board.send_signal(signal.SIGSTOP)
        try:
            serve2, url, back = serve_on(pty, port)
            live, early = None, []
            while time.monotonic_ns() - back < 6e9:
                r = read(d)
                if r["link"] == "live":
                    live = live or r
                    early.append(r["phase"])
                    if (r["mono_ns"] - live["mono_ns"]) > 1.0e9:
                        break
                time.sleep(0.05)
        finally:
            board.send_signal(signal.SIGCONT)
        if not live:
            fail("%s: the page's link did not open again within 6 s of serve's return (board held)" % name)
        if any(p in BREATH_WORDS.values() for p in early):
            fail("%s: the new link drew a breath before any session (the board held): %s" % (name, sorted(set(early))))
    else:
        serve2, url, back = serve_on(pty, port)
    resumed = None
    while time.monotonic_ns() - back < 8e9:
        r = read(d)
        if r["link"] == "live" and r["phase"] in BREATH_WORDS.values():
            resumed = r
            break
        time.sleep(0.03)
    if not resumed:
        fail("%s: the page did not draw the breath within 8 s of serve's return: %s" % (name, read(d)))
    compared = judge_phases(d, log, [resumed] + sample_live(d, 3.0), name)
    header, changes = read_drive_log(log)
    first_drive = next((t for t, level in changes if t >= tick_at(header, back) and level > 0), None)
    out = {"said_after_kill_ms": round((said["mono_ns"] - killed) / 1e6), "no_phase_after_kill_ms": round((stopped["mono_ns"] - killed) / 1e6),
           "motor_off_after_kill_ms": round((motor_off - kill_tick) / 1e3) if motor_off else None,
           "resumed_after_return_ms": round((resumed["mono_ns"] - back) / 1e6),
           "drive_again_after_return_ms": round((first_drive - tick_at(header, back)) / 1e3) if first_drive else None,
           "resumed_after_drive_ms": round((tick_at(header, resumed["mono_ns"]) - first_drive) / 1e3) if first_drive else None,
           "phases_compared": compared, "said": said["phase"] + ": " + said["more"]}
    print("%s: %s" % (name, out), file=sys.stderr)
    if out["said_after_kill_ms"] > 2000 or out["resumed_after_return_ms"] > 5000:
        fail("%s: %s (the bounds: said within 2 s, resumed within 5 s)" % (name, out))
    return serve2, {name: out}


def freeze(d, log, seconds):
    """The page frozen (the page lifecycle's frozen state, as a phone gives a background tab) for `seconds`:
    once thawed it must notice, catch up, and draw the phase the board plays."""
    woke_before = d.execute_script("return window.motorbreath.link.resyncs")
    d.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "frozen"})
    time.sleep(seconds)
    d.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "active"})
    d.execute_cdp_cmd("Emulation.setFocusEmulationEnabled", {"enabled": True})  # the person back at the tab: visible
    thawed = time.monotonic_ns()
    right, meanwhile = None, []
    while time.monotonic_ns() - thawed < 5e9:
        r = read(d)
        if r["link"] == "live" and r["phase"] in BREATH_WORDS.values():
            right = r
            break
        meanwhile.append(r["phase"])
        time.sleep(0.03)
    if not right:
        fail("freeze: the page did not draw the breath within 5 s of its thaw: %s" % read(d))
    woke = d.execute_script("return window.motorbreath.link.resyncs") - woke_before
    compared = judge_phases(d, log, [right] + sample_live(d, 3.0), "freeze")
    out = {"freeze_s": seconds, "resynced": woke, "drawn_after_thaw_ms": round((right["mono_ns"] - thawed) / 1e6),
           "phases_compared": compared, "shown_meanwhile": sorted(set(meanwhile))}
    print("freeze: %s" % out, file=sys.stderr)
    if woke < 1:
        fail("freeze: the page did not notice it had been frozen (no catching up): %s" % out)
    return {"freeze": out}


def main():
    log = os.path.join(tempfile.mkdtemp(prefix="motorbreath-link."), "drive.log")
    board = start([args.motorbreath, "sim-board", "--drive-log", log])
    pty = first_line(board, "/dev/")
    serve = start([args.motorbreath, "serve", "--port", pty, "--http-port", "0", "--pattern", PATTERN])
    url = first_line(serve, "open ").split()[1]
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    result = {}
    phone = browser(390, 844)
    try:
        open_drawn(phone, url)
        judge_phases(phone, log, sample_live(phone, 2.0), "before")
        for sig in (signal.SIGTERM, signal.SIGKILL):
            serve, measured = outage(phone, serve, sig, pty, port, log, board)
            result.update(measured)
        result.update(freeze(phone, log, args.freeze_s))
    finally:
        phone.quit()
    print(json.dumps(result))


try:
    main()
finally:
    stop_children()
