#!/usr/bin/env python3
# The page of `motorbreath serve --palette` (headless Chromium at 390 x 844, touch): shaped for a steady
# vibration (no breath phase, no pace, no pattern preview and no request for one; the breath's place says
# "steady" and the level the square set, the circle's size following it), Tab going Pause, Finish, Stop,
# Strength, the square; its exit statuses as docs/control.md and web.md say: Finish ends it, motor off,
# exit 0; Stop, 130. Judged on the page's boxes and texts, serve's events and exit status, the sim-board's
# drive log. Prints one JSON line; exits 1 with the reason on a failed check.
# SPDX-License-Identifier: Apache-2.0
import argparse, json, os, tempfile, time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from browser_support import browser, fail, first_line, read_drive_log, start, stop_children

ap = argparse.ArgumentParser()
ap.add_argument("--motorbreath", default=".build/debug/motorbreath")
args = ap.parse_args()
TAB_ORDER = ["pause", "finish", "stop", "intensity", "palette"]
HIDDEN = ["preview", "pace-row", "pace-down", "pace-up", "preset", "ahap", "play", "export"]

SHAPE = """const shown = (id) => { const e = document.getElementById(id); if (!e) return false;
  const b = e.getBoundingClientRect(); return b.width > 0 && b.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
const text = (id) => document.getElementById(id).textContent;
return {shown: Object.fromEntries(arguments[0].map((id) => [id, shown(id)])), phase: text('phase'), left: text('left'),
  cycle: text('cycle'), say: text('say'), body: document.body.innerText, drawn: window.motorbreath.drawn,
  preview: window.motorbreath.preview || null,
  fetched: performance.getEntriesByType('resource').map((r) => r.name).filter((n) => n.includes('/api/'))};"""


def serve_palette(folder, name):
    log = os.path.join(folder, name + ".log")
    board = start([args.motorbreath, "sim-board", "--drive-log", log])
    pty = first_line(board, "/dev/")
    serve = start([args.motorbreath, "serve", "--port", pty, "--http-port", "0", "--palette"])
    return serve, first_line(serve, "open ").split()[1], log


def wait_drawn(d, url, timeout=15):
    d.get(url)
    deadline = time.time() + timeout
    while time.time() < deadline and not (d.execute_script("return window.motorbreath.drawn") or {}).get("palette"):
        time.sleep(0.1)
    if not (d.execute_script("return window.motorbreath.drawn") or {}).get("palette"):
        fail("the palette page drew no steady vibration within %d s" % timeout)


def shape(d):
    """No phase, pace or preview; the level and the sharpness at the breath's place; nothing asked of /api/."""
    time.sleep(1.5)  # a preview asked for at load would have come back by now
    m = d.execute_script(SHAPE, HIDDEN + ["stage", "phase", "pause", "finish", "stop", "intensity", "palette"])
    hidden_shown = [i for i in HIDDEN if m["shown"][i]]
    if hidden_shown:
        fail("the palette page shows what a steady vibration has not: %s" % hidden_shown)
    if not all(m["shown"][i] for i in ["stage", "phase", "pause", "finish", "stop", "intensity", "palette"]):
        fail("the palette page hides its own controls: %s" % m["shown"])
    words = [w for w in ("inhale", "exhale", "hold", "…", "bad pattern", "starting") if w in m["body"]]
    if m["phase"] != "steady" or words or m["fetched"] or m["preview"]:
        fail("the palette page is not shaped for the palette: phase %r, words %s, /api/ requests %s, preview %s"
             % (m["phase"], words, m["fetched"], m["preview"]))
    if m["left"] != "50 %" or not m["cycle"].startswith("sharpness ") or m["say"] != "steady vibration":
        fail("the palette's place says %r / %r / %r (want 50 %%, the sharpness, 'steady vibration')" % (m["left"], m["cycle"], m["say"]))
    return {"phase": m["phase"], "level": m["left"], "meta": m["cycle"], "scale": round(m["drawn"]["scale"], 3)}


def tab_order(d):
    d.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
    seen = []
    for _ in range(len(TAB_ORDER) + 3):
        ActionChains(d).send_keys(Keys.TAB).perform()
        seen.append(d.execute_script("const e = document.activeElement; return e ? (e.id || e.tagName) : null;"))
    if [i for i in seen if i][:len(TAB_ORDER)] != TAB_ORDER:
        fail("the palette page's Tab order: %s (want %s)" % (seen, TAB_ORDER))
    return seen[:len(TAB_ORDER)]


def level_follows(d):
    """ArrowDown x 4 on the square: serve applies 0.3, the words and the circle follow."""
    before = d.execute_script("return window.motorbreath.drawn.scale")
    d.execute_script("document.getElementById('palette').focus();")
    for _ in range(4):
        ActionChains(d).send_keys(Keys.ARROW_DOWN).perform()
        time.sleep(0.05)
    deadline = time.time() + 5
    while time.time() < deadline and d.execute_script("return document.getElementById('left').textContent") != "30 %":
        time.sleep(0.1)
    after = d.execute_script("return {left: document.getElementById('left').textContent, scale: window.motorbreath.drawn.scale}")
    if after["left"] != "30 %" or not after["scale"] < before - 0.1:
        fail("the palette's place did not follow the level: %s, scale %.3f -> %.3f" % (after["left"], before, after["scale"]))
    return [round(before, 3), round(after["scale"], 3)]


def ended_by(d, serve, log, button):
    """Presses `button`; serve's exit status, the page's last word, the motor off on the drive log."""
    d.execute_script("window.scrollTo(0, 0); document.getElementById(arguments[0]).click();", button)
    try:
        status = serve.wait(15)
    except Exception:
        fail("serve --palette still runs 15 s after %s" % button)
    time.sleep(0.5)
    events = d.execute_script("return window.motorbreath.events")
    _, changes = read_drive_log(log)
    finished = [e for e in events if e["event"] == "finished"]
    if not finished or not changes or changes[-1][1] != 0:
        fail("%s: no finished event (%s) or the motor not off (last drive %s)" % (button, events[-3:], changes[-1:] or None))
    return {"exit": status, "motor_off_at_exit": finished[-1]["report"].get("motor_off_at_exit"), "last_drive": changes[-1][1]}


def main():
    folder = tempfile.mkdtemp(prefix="motorbreath-palette.")
    result = {}
    serve, url, log = serve_palette(folder, "finish")
    d = browser(390, 844)
    try:
        wait_drawn(d, url)
        result["shape"] = shape(d)
        result["tab"] = tab_order(d)
        result["scale_by_level"] = level_follows(d)
        result["finish"] = ended_by(d, serve, log, "finish")
    finally:
        d.quit()
    serve, url, log = serve_palette(folder, "stop")
    d = browser(390, 844)
    try:
        wait_drawn(d, url)
        result["stop"] = ended_by(d, serve, log, "stop")
    finally:
        d.quit()
    if result["finish"]["exit"] != 0 or result["stop"]["exit"] != 130:
        fail("serve --palette exit statuses: Finish %s (want 0), Stop %s (want 130)" % (result["finish"]["exit"], result["stop"]["exit"]))
    print(json.dumps(result))


try:
    main()
finally:
    stop_children()
