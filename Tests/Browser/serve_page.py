#!/usr/bin/env python3
# motorbreath serve in a real browser (headless Chromium through selenium): the breath circle sampled
# against the simulated board's ticks, the palette dragged with touch and the drive log checked, an AHAP
# file previewed and played on the board (the drive log against the file), the WebSocket refused from a foreign Origin and without the token. Screenshots at 390x844 and 1280x800 go to
# --shots (the tests: a temporary folder; docs: `python3 Tests/Browser/serve_page.py --shots-only --shots docs`, with
# the --palette page too).
# Prints one JSON line of measurements; exits 1 with the reason on a failed check.
# SPDX-License-Identifier: Apache-2.0
import argparse, http.client, json, os, shutil, subprocess, sys, tempfile, time

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.common.actions import interaction
except ImportError:
    sys.exit("FAIL: selenium is missing (bash .ci/install --tests installs it, with chromium and chromium-driver)")
# The processes this script starts (each with a config folder of its own), their first lines, the drive log.
from browser_support import fail, first_line, drive_runs, read_drive_log, start, stop_children, tick_at

ap = argparse.ArgumentParser()
ap.add_argument("--motorbreath", default=".build/debug/motorbreath")
ap.add_argument("--shots", default=tempfile.mkdtemp(prefix="motorbreath-shots."))
ap.add_argument("--shots-only", action="store_true", help="only the screenshots (for docs/)")
ap.add_argument("--pattern", default="2-1-2-1")
args = ap.parse_args()
os.makedirs(args.shots, exist_ok=True)


def browser(width, height):
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=%d,%d" % (width, height)):
        o.add_argument(a)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    return d


def handshake(port, host, origin, path):
    """A raw WebSocket handshake; returns the HTTP status."""
    c = http.client.HTTPConnection("127.0.0.1" if not host.startswith("127.0.0.2") else "127.0.0.2", port, timeout=5)
    h = {"Host": host, "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
         "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
    if origin:
        h["Origin"] = origin
    c.request("GET", path, headers=h)
    status = c.getresponse().status
    c.close()
    return status


def open_drawn(d, url, timeout=15, required=True):
    """Opens the page and waits until it has drawn the breath; fails after `timeout` s if `required` (with
    reduced motion, or a --palette vibration, the page may never report a drawn circle)."""
    d.get(url)
    deadline = time.time() + timeout
    while time.time() < deadline and not d.execute_script("return window.motorbreath && window.motorbreath.drawn"):
        time.sleep(0.1)
    if required and not d.execute_script("return window.motorbreath && window.motorbreath.drawn"):
        fail("the page drew no breath within %d s" % timeout)


def palette_rect(d):
    """Scrolls the palette square into view; its box on the page."""
    return d.execute_script("const p = document.getElementById('palette'); p.scrollIntoView({block: 'center'});"
                            "const b = p.getBoundingClientRect(); return {x: b.left, y: b.top, width: b.width, height: b.height};")


def one_hand(d):
    """Usable with one hand on a phone (390 x 844): nothing wider than the screen, every control at least
    44 px tall (Apple's and WCAG's touch target), the palette a square a thumb can cover."""
    m = d.execute_script("""
        const small = [...document.querySelectorAll('button, select, a.button, input[type=range], label.file')]
          .map((e) => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect().height]).filter((x) => x[1] < 44);
        const p = document.getElementById('palette').getBoundingClientRect();
        return {overflow: document.documentElement.scrollWidth - window.innerWidth, small, palette: [p.width, p.height]};""")
    out = {"phone_overflow_px": m["overflow"], "phone_small_controls": m["small"], "palette_px": [round(v) for v in m["palette"]]}
    if m["overflow"] > 0 or m["small"] or min(m["palette"]) < 200 or abs(m["palette"][0] - m["palette"][1]) > 2:
        fail("not usable with one hand at 390 x 844: %s" % out)
    return out


def play_file(phone, log, ahap, rows):
    """Drops `ahap` (1 s at 0.8, 0.5 s of nothing, 0.5 s at 0.4) again, presses Play, and checks the drive
    log against `render --ahap` (`rows`), then the breath starting again."""
    again = os.path.join(os.path.dirname(log), "steady-again.ahap")
    shutil.copy(ahap, again)  # another name: the file input fires only on a change
    phone.execute_script("window.motorbreath.preview = null; window.motorbreath.played = null;")
    phone.find_element("id", "ahap").send_keys(again)
    deadline = time.time() + 10
    while time.time() < deadline and not phone.execute_script("return window.motorbreath.preview"):
        time.sleep(0.1)
    asked_ns = time.monotonic_ns()
    phone.execute_script("document.getElementById('play').click();")
    shown, seen, deadline = set(), [], time.time() + 15
    while time.time() < deadline:
        shown.add(phone.execute_script("return document.getElementById('phase').textContent"))
        events = phone.execute_script("return window.motorbreath.events")
        start = next((i for i, e in enumerate(events) if e["event"] == "file" and e["state"] == "playing"), None)
        seen = events[start:] if start is not None else []
        played = next((i for i, e in enumerate(seen) if e["event"] == "file" and e["state"] != "playing"), None)
        if played is not None and any(e["event"] == "phase" for e in seen[played:]):
            break
        time.sleep(0.05)
    answer = phone.execute_script("return window.motorbreath.played")
    files = [e for e in seen if e["event"] == "file"]
    if not answer or answer["status"] != 202 or [f["state"] for f in files] != ["playing", "played"]:
        fail("the file did not play: POST answered %s, file events %s" % (answer, files))
    if "steady-again.ahap" not in shown:
        fail("the page did not show the file playing (it showed %s)" % sorted(shown))
    after = seen[seen.index(files[1]):]
    again_prepared = any(e["event"] == "prepared" for e in after)
    phase = next((e for e in after if e["event"] == "phase"), None)
    if not again_prepared or not phase or phase["cycle"] != 1 or phase["phase"] != "inhale":
        fail("the breath did not start again after the file: %s" % after[:6])
    time.sleep(0.5)
    header, changes = read_drive_log(log)
    ask, hz = tick_at(header, asked_ns), header["hz"]
    # Runs of forward drive after the ask: the file's first part (with its 0.3 s warm-up before it), its
    # second part, then the breath's first inhale.
    runs = drive_runs(changes, ask)  # the last may be the breath's drive, still going (its end None)
    first = next((i for i, r in enumerate(runs) if r[1] and abs(r[1] - r[0] - 1.296 * hz) < 0.02 * hz), None)
    if first is None or first + 2 >= len(runs):
        fail("the drive log after the ask has no run of the file's first part (1.296 s with the warm-up) and two after it: %s" % runs[:6])
    # The oracle is `render --ahap` (the `rows` of step 3): the file's frames as render shapes them, aligned
    # by the first brake (where the first part ends), every frame compared half a frame in, on the board.
    brake_s = next(r[0] for r in rows if r[2] < 0)
    t0 = runs[first][1] - brake_s * hz

    def level_at(tick):
        return next((lv for (t, lv), (u, _) in zip(changes, changes[1:]) if t <= tick < u), changes[-1][1])
    compared, worst = 0, 0
    for r in rows:
        if r[0] < 0.15:
            continue  # the first kick: the session warmed the motor for 0.3 s before (render starts it from rest)
        worst = max(worst, abs(level_at(t0 + (r[0] + 0.002) * hz) - round(r[2] * 32767)))
        compared += 1
    c0 = runs[first + 2][0]
    out = {"file_frames_compared": compared, "file_worst_level_vs_render": worst,
           "breath_again_after_file_s": round((c0 - (t0 + rows[-1][0] * hz)) / hz, 3),
           "breath_phase_after_its_drive_ms": round((phase["board_tick"] - c0) / hz * 1000, 1)}
    print("file: %s" % out, file=sys.stderr)
    if compared < 460 or worst > 2:
        fail("the file's drive on the board is not render's: %s" % out)
    # The breath's drive starts with its 0.3 s warm-up before its first phase's tick.
    if abs(phase["board_tick"] - 0.3 * hz - c0) > 0.02 * hz:
        fail("the breath's first phase event is not where its drive starts again: %s" % out)
    return out


def shoot_palette():
    """The --palette page (a steady vibration: no phases, pace or preview) on a phone and a desk."""
    board = start([args.motorbreath, "sim-board"])
    pty = first_line(board, "/dev/")
    serve = start([args.motorbreath, "serve", "--port", pty, "--http-port", "0", "--palette"])
    url = first_line(serve, "open ").split()[1]
    for width, height, name in ((390, 844, "serve-phone-palette.png"), (1280, 800, "serve-desktop-palette.png")):
        page = browser(width, height)
        try:
            open_drawn(page, url, required=False)
            time.sleep(1.0)
            page.save_screenshot(os.path.join(args.shots, name))
        finally:
            page.quit()


def main():
    log = os.path.join(tempfile.mkdtemp(prefix="motorbreath-serve."), "drive.log")
    board = start([args.motorbreath, "sim-board", "--drive-log", log])
    pty = first_line(board, "/dev/")
    serve = start([args.motorbreath, "serve", "--port", pty, "--http-port", "0", "--pattern", args.pattern])
    url = first_line(serve, "open ").split()[1]
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    result = {"url": url}

    phone = browser(390, 844)
    try:
        open_drawn(phone, url)
        time.sleep(1.0)
        phone.save_screenshot(os.path.join(args.shots, "serve-phone.png"))
        if not args.shots_only:
            result.update(one_hand(phone))
        scroll_to_preview = "document.getElementById('preview').scrollIntoView({block: 'end'});"
        if args.shots_only:
            phone.execute_script(scroll_to_preview)
            time.sleep(0.5)
            phone.save_screenshot(os.path.join(args.shots, "serve-phone-preview.png"))
            desk = browser(1280, 800)
            desk.get(url)
            time.sleep(3.5)
            desk.save_screenshot(os.path.join(args.shots, "serve-desktop.png"))
            desk.execute_script(scroll_to_preview)
            time.sleep(0.5)
            desk.save_screenshot(os.path.join(args.shots, "serve-desktop-preview.png"))
            # serve gone: the breath's place says so (the page tries again meanwhile).
            for page in (phone, desk):
                page.execute_script("window.scrollTo(0, 0);")
            serve.kill()
            serve.wait(10)
            time.sleep(1.5)
            phone.save_screenshot(os.path.join(args.shots, "serve-phone-lost.png"))
            desk.save_screenshot(os.path.join(args.shots, "serve-desktop-lost.png"))
            desk.quit()
            shoot_palette()
            print(json.dumps({"shots": args.shots}))
            return

        # 1. The circle against the board's ticks: samples of what was drawn, with the page's clock.
        samples = []
        rt_minus_mono_ns = time.time_ns() - time.monotonic_ns()
        begin = time.time()
        end = begin + 10
        paused = resumed = False
        while time.time() < end:
            d = phone.execute_script("return window.motorbreath.drawn")
            samples.append(d)
            # A pause early in an exhale (2 s long), for 1.2 s: the schedule must go on where the pause left
            # the breath, with most of the exhale still to come.
            if not paused and time.time() > begin + 3.5 and d["phase"] == "exhale" and d["progress"] < 0.2:
                phone.execute_script("window.motorbreath.send({command: 'pause'})")
                paused = time.time()
            if paused and not resumed and time.time() > paused + 1.2:
                phone.execute_script("window.motorbreath.send({command: 'resume'})")
                resumed = True
            time.sleep(0.07)
        rt_minus_mono_ns = (rt_minus_mono_ns + time.time_ns() - time.monotonic_ns()) / 2
        time.sleep(1.5)  # the phase events of the sampled span arrive about 0.1 s after their ticks
        events = phone.execute_script("return window.motorbreath.events")
        phases = [e for e in events if e["event"] == "phase"]
        header, changes = read_drive_log(log)
        sizes = {"inhale": lambda p: p, "hold": lambda p: 1.0, "exhale": lambda p: 1 - p, "hold-out": lambda p: 0.0}
        # The phase ticks are the board's: each hold begins where the drive log's inhale drive ends (to 0 or
        # the brake), no later than one frame after it, and no earlier than the drop's lead (the renderer
        # starts braking ahead of a drop into silence: 16 ms, 4 frames, for the simulated board's motor; 20 allowed).
        holds_checked = 0
        for e in phases:
            if e["phase"] == "hold" and e["board_tick"] < changes[-1][0]:
                first = next(((t, l) for t, l in changes if t >= e["board_tick"] - 20000 and l <= 0), None)
                if first is None or not (-20000 <= first[0] - e["board_tick"] <= 4010):
                    fail("the hold at tick %d is not on the drive log (first brake %s); around: %s" % (e["board_tick"], first, [(t - e["board_tick"], l) for t, l in changes if abs(t - e["board_tick"]) < 40000]))
                holds_checked += 1
        applied = {e["command"]: e["board_tick"] for e in events if e["event"] == "applied" and e["command"] in ("pause", "resume")}
        if set(applied) != {"pause", "resume"}:
            fail("the pause and the resume did not both reach the motor: %s" % applied)
        pause_tick, resume_tick = applied["pause"], applied["resume"]

        def active(x):  # board ticks of breath: the pause's span does not count
            return x - max(0, min(x, resume_tick) - pause_tick) if x > pause_tick else x
        worst, compared, compared_after_resume = 0.0, 0, 0
        for d in samples:
            mono_ns = d["pageMs"] * 1e6 - rt_minus_mono_ns
            tick = header["offset"] + (mono_ns - header["boot"]) * header["hz"] / 1e9 * (1 + header["drift"] / 1e6)
            if pause_tick <= tick <= resume_tick + 300_000:
                continue  # paused (and the page hearing of the resume): the circle waits
            before = [e for e in phases if e["board_tick"] <= tick]
            after = [e for e in phases if e["board_tick"] > tick]
            if not before or not after:
                continue
            a, b = before[-1], after[0]
            span = active(b["board_tick"]) - active(a["board_tick"])
            length_ms = span / 1000
            true_size = sizes[a["phase"]]((active(tick) - active(a["board_tick"])) / span)
            if a["board_tick"] < pause_tick < b["board_tick"] and tick > resume_tick:
                compared_after_resume += 1
            drawn = (d["scale"] - 0.4) / 0.6
            to_edge = min(active(tick) - active(a["board_tick"]), active(b["board_tick"]) - active(tick)) / 1000
            if d["phase"] != a["phase"]:
                err = to_edge  # drawn in the neighbouring phase: late or early by at least this much
            elif a["phase"] in ("inhale", "exhale"):
                err = abs(drawn - true_size) * length_ms
            else:
                err = 0.0
            worst = max(worst, err)
            compared += 1
        result.update(samples=compared, circle_worst_ms=round(worst, 1), holds_on_drive_log=holds_checked,
                      samples_in_the_resumed_phase=compared_after_resume)
        print("circle: %s" % result, file=sys.stderr)
        if compared < 40:
            fail("only %d samples could be compared" % compared)
        if compared_after_resume < 3:
            fail("only %d samples in the phase the pause interrupted" % compared_after_resume)
        if worst > 50:
            fail("the circle was %.1f ms off the board's ticks" % worst)

        # The page's messages go through the command line's range checks: intensity 2 is an error, not a change.
        phone.execute_script("window.motorbreath.send({command: 'intensity', value: 2, id: 'too-strong'})")
        deadline = time.time() + 5
        refused = []
        while time.time() < deadline and not refused:
            refused = [e for e in phone.execute_script("return window.motorbreath.events") if e.get("id") == "too-strong"]
            time.sleep(0.1)
        result["range_checked"] = refused[0].get("message") if refused else None
        if not refused or refused[0]["event"] != "error" or "0...1" not in refused[0]["message"]:
            fail("intensity 2 from the page was not refused as the command line refuses it: %s" % refused)

        # 2. The palette, dragged with a finger: low intensity, then the drive log's inhale peaks fall.
        r = palette_rect(phone)
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        actions = ActionBuilder(phone, mouse=finger)
        actions.pointer_action.move_to_location(int(r["x"] + r["width"] * 0.3), int(r["y"] + 5)).pointer_down()
        for k in range(1, 9):
            actions.pointer_action.move_to_location(int(r["x"] + r["width"] * 0.3), int(r["y"] + r["height"] * (0.1 * k + 0.05)))
        actions.pointer_action.pointer_up()
        drag_tick = None
        actions.perform()
        time.sleep(0.6)
        events = phone.execute_script("return window.motorbreath.events")
        applied = [e for e in events if e["event"] == "applied" and e["command"] == "intensity"]
        if not applied:
            fail("the palette's drag reached no motor (no applied intensity)")
        last = applied[-1]
        drag_tick = last["board_tick"]
        result["palette_intensity"] = last["value"]
        time.sleep(6.8)  # a whole cycle after the change
        header, changes = read_drive_log(log)

        def mean_drive(a, b):  # the time-weighted mean of the positive drive over [a, b) ticks
            total = 0.0
            for (t, level), (t2, _) in zip(changes, changes[1:] + [(b, 0)]):
                lo, hi = max(t, a), min(t2, b)
                if hi > lo:
                    total += max(0, level) * (hi - lo)
            return total / (b - a)
        cycle = 6_000_000  # 2-1-2-1: one whole cycle on each side of the change
        before = mean_drive(drag_tick - cycle - 300_000, drag_tick - 300_000)
        after = mean_drive(drag_tick + 300_000, drag_tick + 300_000 + cycle)
        result.update(mean_drive_before=round(before), mean_drive_after=round(after))
        if last["value"] > 0.3 or not after < before * 0.5:
            fail("the drive did not follow the palette: intensity %s, mean drive %d before, %d after" % (last["value"], before, after))

        # 3. An AHAP file uploaded: the preview shows the file's own intensity, and render's drive and felt.
        ahap = os.path.join(os.path.dirname(log), "steady.ahap")
        with open(ahap, "w") as f:
            json.dump({"Version": 1.0, "Pattern": [
                {"Event": {"Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 1.0, "EventParameters": [
                    {"ParameterID": "HapticIntensity", "ParameterValue": 0.8}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.2}]}},
                {"Event": {"Time": 1.5, "EventType": "HapticContinuous", "EventDuration": 0.5, "EventParameters": [
                    {"ParameterID": "HapticIntensity", "ParameterValue": 0.4}]}}]}, f)
        phone.execute_script("window.motorbreath.preview = null; window.motorbreath.exported = null;")
        phone.find_element("id", "ahap").send_keys(ahap)
        deadline = time.time() + 10
        preview = None
        while time.time() < deadline and not preview:
            preview = phone.execute_script("return window.motorbreath.preview")
            time.sleep(0.1)
        if not preview or "error" in preview:
            fail("no preview of the uploaded AHAP file: %s" % preview)
        rendered = subprocess.run([args.motorbreath, "render", "--ahap", ahap, "--format", "csv"], capture_output=True, text=True, check=True).stdout
        rows = [list(map(float, r.split(","))) for r in rendered.strip().split("\n")[1:]]
        by_time = {round(r[0], 4): r for r in rows}
        worst_render = 0.0
        for i, t in enumerate(preview["time_s"]):
            r = by_time.get(round(t, 4))
            if r is None:
                fail("the preview has a time render has not: %s" % t)
            worst_render = max(worst_render, abs(r[1] - preview["intensity"][i]), abs(r[2] - preview["drive"][i]), abs(r[3] - preview["felt"][i]))
            if 0.05 < t < 0.95 and abs(preview["intensity"][i] - 0.8) > 1e-3 or 1.55 < t < 1.95 and abs(preview["intensity"][i] - 0.4) > 1e-3 \
                    or 1.05 < t < 1.45 and preview["intensity"][i] > 1e-3:
                fail("the preview's intensity at %.3f s is %s, the file says otherwise" % (t, preview["intensity"][i]))
        exported = None
        deadline = time.time() + 5
        while time.time() < deadline and not exported:
            exported = phone.execute_script("return window.motorbreath.exported")  # what the Export link downloads
            time.sleep(0.1)
        events_out = [p for p in json.loads(exported)["Pattern"] if "Event" in p]
        result.update(preview_points=len(preview["time_s"]), preview_vs_render=worst_render, preview_duration=preview["duration_s"],
                      exported_events=len(events_out))
        if worst_render > 1e-4 or abs(preview["duration_s"] - 2.0) > 1e-9 or len(events_out) != 2:
            fail("the preview or the export differ: %s" % result)

        # A preset chosen and played: the session changes pattern at once ("at": "now").
        phone.execute_script("const s = document.getElementById('preset'); s.value = 'box'; s.dispatchEvent(new Event('change'));"
                             "document.getElementById('play').click();")
        deadline = time.time() + 5
        played = []
        while time.time() < deadline and not played:
            played = [e for e in phone.execute_script("return window.motorbreath.events")
                      if e["event"] == "applied" and e["command"] == "pattern" and e.get("pattern") == "box"]
            time.sleep(0.1)
        result["preset_played"] = bool(played)
        if not played:
            fail("the preset box was not played (no applied pattern event)")

        # The dropped file played on the board in the breath's place, then the breath again from cycle 1:
        # judged on the drive log (the board's ticks) against the file's own times and render's drive.
        result.update(play_file(phone, log, ahap, rows))

        # 4. Refused: a WebSocket from another site's page, a DNS name in Host.
        here = "127.0.0.1:%d" % port
        result["ws_same_origin"] = handshake(port, here, "http://" + here, "/ws")
        result["ws_foreign_origin"] = handshake(port, here, "http://evil.example", "/ws")
        result["ws_rebound_host"] = handshake(port, "evil.example:%d" % port, "http://evil.example:%d" % port, "/ws")
        if result["ws_same_origin"] != 101 or result["ws_foreign_origin"] != 403 or result["ws_rebound_host"] != 403:
            fail("origin checks: %s" % result)
    finally:
        phone.quit()

    # prefers-reduced-motion: the circle keeps its size (its brightness and the words follow the phase).
    calm = browser(390, 844)
    try:
        calm.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        open_drawn(calm, url, timeout=10, required=False)
        looks = set()
        phases_seen = set()
        end = time.time() + 5  # box plays now (step 3 chose it): 4 s phases
        while time.time() < end:
            looks.add(calm.execute_script("const c = document.getElementById('circle'); return getComputedStyle(c).transform;"))
            phases_seen.add(calm.execute_script("return document.getElementById('phase').textContent"))
            time.sleep(0.1)
        result.update(reduced_motion_transforms=len(looks), reduced_motion_phases=len(phases_seen))
        if len(looks) != 1 or len(phases_seen) < 2:
            fail("prefers-reduced-motion: %d circle sizes, %d phase names in 5 s (want 1 size, the phases changing)" % (len(looks), len(phases_seen)))
    finally:
        calm.quit()

    # 5. Beyond 127.0.0.1 the token is required (127.0.0.2: still this machine only, as tests must).
    serve2 = start([args.motorbreath, "serve", "--simulate", "--listen", "127.0.0.2", "--http-port", "0"])
    url2 = first_line(serve2, "open ").split()[1]
    port2 = int(url2.rsplit(":", 1)[1].split("/")[0])
    token = url2.split("token=")[1]
    host2 = "127.0.0.2:%d" % port2
    result["ws_no_token"] = handshake(port2, host2, "http://" + host2, "/ws")
    result["ws_token"] = handshake(port2, host2, "http://" + host2, "/ws?token=" + token)
    c = http.client.HTTPConnection("127.0.0.2", port2, timeout=5)
    c.request("GET", "/")
    result["page_no_token"] = c.getresponse().status
    if result["ws_no_token"] != 403 or result["ws_token"] != 101 or result["page_no_token"] != 403:
        fail("token checks: %s" % result)

    # 6. --stop-when-closed: the last page's WebSocket closes, the breath stops, motor off, exit 0.
    log3 = os.path.join(os.path.dirname(log), "drive3.log")
    board3 = start([args.motorbreath, "sim-board", "--drive-log", log3])
    pty3 = first_line(board3, "/dev/")
    serve3 = start([args.motorbreath, "serve", "--port", pty3, "--http-port", "0", "--stop-when-closed"])
    url3 = first_line(serve3, "open ").split()[1]
    port3 = int(url3.rsplit(":", 1)[1].split("/")[0])
    import socket
    s = socket.create_connection(("127.0.0.1", port3), timeout=5)
    s.sendall(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n" % port3).encode())
    if b" 101 " not in s.recv(4096):
        fail("--stop-when-closed: the WebSocket did not open")
    time.sleep(2.5)  # the breath is playing
    s.close()
    try:
        status = serve3.wait(10)
    except subprocess.TimeoutExpired:
        fail("--stop-when-closed: serve still runs 10 s after its last page closed")
    _, changes3 = read_drive_log(log3)
    result.update(stop_when_closed_exit=status, last_drive=changes3[-1][1] if changes3 else None)
    if status != 0 or not changes3 or changes3[-1][1] != 0:
        fail("--stop-when-closed: exit %s, last drive %s (want 0, 0)" % (status, result["last_drive"]))

    # 7. --palette: a steady vibration; a finger on the square sets its level (down: weaker) and its
    # sharpness (right: sharper), and the drive log's steady level follows.
    log4 = os.path.join(os.path.dirname(log), "drive4.log")
    board4 = start([args.motorbreath, "sim-board", "--drive-log", log4])
    pty4 = first_line(board4, "/dev/")
    serve4 = start([args.motorbreath, "serve", "--port", pty4, "--http-port", "0", "--palette"])
    url4 = first_line(serve4, "open ").split()[1]
    pal = browser(390, 844)
    try:
        open_drawn(pal, url4, required=False)
        time.sleep(1.5)  # the steady level settles
        r = palette_rect(pal)
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        actions = ActionBuilder(pal, mouse=finger)
        actions.pointer_action.move_to_location(int(r["x"] + r["width"] * 0.5), int(r["y"] + r["height"] * 0.5)).pointer_down()
        for k in range(1, 6):  # down and to the right: weaker and sharper
            actions.pointer_action.move_to_location(int(r["x"] + r["width"] * (0.5 + 0.08 * k)), int(r["y"] + r["height"] * (0.5 + 0.08 * k)))
        actions.pointer_action.pointer_up()
        actions.perform()
        deadline = time.time() + 5
        applied = {}
        while time.time() < deadline and len(applied) < 2:
            for e in pal.execute_script("return window.motorbreath.events"):
                if e["event"] == "applied" and e["command"] in ("intensity", "sharpness"):
                    applied[e["command"]] = e
            time.sleep(0.1)
        if "intensity" not in applied or "sharpness" not in applied:
            fail("--palette: the drag reached no motor: %s" % applied)
        time.sleep(1.5)
        for e in pal.execute_script("return window.motorbreath.events"):  # the last of each: where the finger ended
            if e["event"] == "applied" and e["command"] in ("intensity", "sharpness"):
                applied[e["command"]] = e
        _, changes4 = read_drive_log(log4)
        tick = applied["intensity"]["board_tick"]

        def level_at(t):
            level = 0
            for (t0, l0) in changes4:
                if t0 > t:
                    break
                level = l0
            return level
        before, after = None, level_at(tick + 1_000_000)
        # Steady: one level for the second before the finger came (a breath would swell and fade).
        first = min(e["board_tick"] for e in pal.execute_script("return window.motorbreath.events")
                    if e["event"] == "applied" and e["command"] in ("intensity", "sharpness"))
        levels = {level_at(first - 1_100_000 + k * 50_000) for k in range(21)}
        result.update(palette_steady_before=before, palette_steady_after=after, palette_levels_before=len(levels),
                      palette_mode_intensity=applied["intensity"]["value"],
                      palette_mode_sharpness=applied["sharpness"].get("effective"))
        # (The shaper dithers between two neighbouring steps of the duty's resolution: 8609 and 8737 on u8.)
        if len(levels) > 2 or max(levels) - min(levels) > 0.03 * max(levels):
            fail("--palette: not a steady vibration before the drag: levels %s in a second" % sorted(levels))
        before = level_at(first - 100_000)
        result["palette_steady_before"] = before
        if not (applied["intensity"]["value"] < 0.2 and (applied["sharpness"].get("effective") or 0) > 0.7):
            fail("--palette: the drag's values: %s" % result)
        if not (before > 0 and 0 < after < before * 0.6):
            fail("--palette: the steady level did not follow the finger: %d before, %d after" % (before, after))
    finally:
        pal.quit()
    print(json.dumps(result))


try:
    main()
finally:
    stop_children()
