#!/usr/bin/env python3
# The page's preview plot and pace (headless Chromium, 390 x 844 with touch and 1280 x 800): the plot's
# axes (seconds along, covering the preview; 0, 50, 100 % up) and a legend naming each line with the
# line's own colour, width and dashes; each line seen, with the others drawn, in at least 90 % of the
# plot's columns where it shows drawn alone (none hides another); the pace's - and + at least 44 px, a
# press saying "from the next phase" until serve's applied pace, the value then serve's; a pace and a
# strength serve refuses (an AHAP file plays) shown back at serve's value, in serve's state too; after
# Finish the cycle never counts past the total (every text the page showed).
# Prints one JSON line; exits 1 with the reason on a failed check.
# SPDX-License-Identifier: Apache-2.0
import argparse, http.client, json, os, re, tempfile, time

from selenium.webdriver.common.keys import Keys

from browser_support import browser, fail, first_line, open_drawn, start, stop_children

ap = argparse.ArgumentParser()
ap.add_argument("--motorbreath", default=".build/debug/motorbreath")
args = ap.parse_args()

# Per column of the plot's area: whether a pixel of each line's colour is there (within 24 of each channel,
# the plot laid on the page's background), from the canvas's own pixels (not a hash: a count of where each line can be seen); on
# the page's plot, and for each line drawn alone at the same size (plot.js on a canvas of the plot's box).
COLUMNS = """const seen = (drawn, p) => { const r = window.devicePixelRatio || 1, c = document.createElement('canvas');
  c.width = drawn.width; c.height = drawn.height;  // on the page's background, as a person sees it
  const g = c.getContext('2d'); g.fillStyle = '#0b0f14'; g.fillRect(0, 0, c.width, c.height); g.drawImage(drawn, 0, 0);
  const px = g.getImageData(0, 0, c.width, c.height).data;
  const rgb = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)), out = {};
  for (const line of p.lines) {
    const bg = [11, 15, 20], want = rgb(line.colour).map((v, k) => line.alpha * v + (1 - line.alpha) * bg[k]); let n = 0;
    for (let x = Math.ceil(p.area.left * r) + 2; x < Math.floor(p.area.right * r) - 2; x++) {
      for (let y = 0; y < c.height; y++) {
        const i = (y * c.width + x) * 4;
        if (Math.abs(px[i] - want[0]) < 24 && Math.abs(px[i + 1] - want[1]) < 24 && Math.abs(px[i + 2] - want[2]) < 24) { n++; break; }
      }
    }
    out[line.key] = n;
  }
  return out; };
const plot = document.getElementById('plot'), data = window.motorbreath.preview, together = seen(plot, window.motorbreath.plot);
const alone = {};
for (const key of ['intensity', 'drive', 'felt']) {
  const c = document.createElement('canvas');
  c.style.cssText = 'position: absolute; left: -5000px; top: 0; width: ' + plot.clientWidth + 'px; height: ' + plot.clientHeight + 'px';
  document.body.appendChild(c);
  const p = Breath.Plot.draw(c, data, key);
  alone[key] = seen(c, p)[key]; c.remove();
}
return {together, alone};"""

LEGEND = """return [...document.querySelectorAll('#legend .key')].map((k) => { const s = getComputedStyle(k.querySelector('i'));
  return {text: k.textContent.trim(), colour: s.borderTopColor, width: parseFloat(s.borderTopWidth), style: s.borderTopStyle}; });"""


def wait(d, script, timeout, what):
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = d.execute_script(script)
        if v:
            return v
        time.sleep(0.05)
    fail("%s: not within %s s" % (what, timeout))


def plot(d, size):
    wait(d, "return [...document.getElementById('preset').options].some((o) => o.value === 'box')", 10, "the presets listed")
    d.execute_script("const s = document.getElementById('preset'); s.value = 'box'; s.dispatchEvent(new Event('change'));")
    wait(d, "return window.motorbreath.preview && window.motorbreath.preview.name === 'box' && window.motorbreath.plot", 10, "the box preview")
    p = d.execute_script("return window.motorbreath.plot")
    duration = d.execute_script("return window.motorbreath.preview.duration_s")
    xs = [t["seconds"] for t in p["xTicks"]]
    labels = [t["label"] for t in p["yTicks"]]
    if len(xs) < 3 or xs[0] > 0 or xs[-1] < duration - (xs[1] - xs[0]) or not all(t["label"].endswith(" s") for t in p["xTicks"]):
        fail("%s: the time axis %s does not cover the box's %s s in seconds" % (size, [t["label"] for t in p["xTicks"]], duration))
    if labels[:3] != ["0 %", "50 %", "100 %"]:
        fail("%s: the scale is %s (want 0 %%, 50 %%, 100 %%)" % (size, labels))
    legend = d.execute_script(LEGEND)
    names = {"intensity": "intended intensity", "felt": "felt", "drive": "drive"}
    for line in p["lines"]:
        key = next((k for k in legend if k["text"].startswith(names[line["key"]])), None)
        dashed = "dashed" if line["dash"] else "solid"
        drawn = [int(line["colour"][i:i + 2], 16) for i in (1, 3, 5)] + [line["alpha"]]
        shown = [float(v) for v in re.findall(r"[\d.]+", key["colour"])] + [1.0] if key else []
        if key is None or key["style"] != dashed or abs(key["width"] - round(line["width"])) > 1 or \
                any(abs(a - b) > 0.02 for a, b in zip(drawn, shown[:4])):
            fail("%s: the legend does not show the %s line as drawn: %s vs %s" % (size, line["key"], key, line))
    counts = d.execute_script(COLUMNS)
    columns = {k: counts["together"][k] / counts["alone"][k] for k in counts["alone"]}
    if min(columns.values()) < 0.9:
        fail("%s: a line hidden by another: of the columns where each shows alone, seen in %s (%s)" % (size, {k: round(v, 3) for k, v in columns.items()}, counts))
    return {"x_ticks": [t["label"] for t in p["xTicks"]], "y_ticks": labels, "legend": [k["text"] for k in legend],
            "columns_seen_of_alone": {k: round(v, 3) for k, v in columns.items()}, "columns_alone": counts["alone"]}


def pace(d):
    """+ pressed: the note says when it applies; serve's applied pace clears it and the value is serve's."""
    boxes = d.execute_script("return ['pace-down', 'pace-up'].map((id) => { const b = document.getElementById(id).getBoundingClientRect(); return [b.width, b.height]; })")
    if min(min(b) for b in boxes) < 44:
        fail("the pace's buttons are smaller than a thumb: %s" % boxes)
    before = wait(d, "const s = window.motorbreath.events.filter((e) => e.event === 'state' && typeof e.bpm === 'number').pop();"
                     "return s && document.getElementById('pace-out').textContent === s.bpm.toFixed(1) + ' /min' ? s.bpm : null", 10, "serve's pace shown")
    d.execute_script("window.motorbreath.events.length = 0; document.getElementById('pace-up').click();")
    note = d.execute_script("return document.getElementById('pace-note').textContent")
    shown = d.execute_script("return document.getElementById('pace-note').getBoundingClientRect().height")
    if "from the next phase" not in note or shown < 10:
        fail("a pace asked for says nothing of when it applies: note %r, %s px tall" % (note, shown))
    applied = wait(d, "return window.motorbreath.events.find((e) => e.event === 'applied' && e.command === 'pace')", 15, "the applied pace")
    wait(d, "return document.getElementById('pace-note').textContent === ''", 2, "the pace's note cleared after serve applied it")
    out = d.execute_script("return document.getElementById('pace-out').textContent")
    if abs(applied["bpm"] - (before + 0.5)) > 1e-9 or out != "%.1f /min" % applied["bpm"]:
        fail("the pace: %s before, applied %s, shown %r" % (before, applied, out))
    return {"bpm": [before, applied["bpm"]], "note": note, "buttons_px": boxes}


def refused_pace(d, port, folder):
    """An AHAP file plays (nothing can be steered): a pace pressed is refused and shown back at serve's."""
    ahap = os.path.join(folder, "long.ahap")
    with open(ahap, "w") as f:
        json.dump({"Version": 1.0, "Pattern": [{"Event": {"Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 4.0,
                   "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5}]}}]}, f)
    d.execute_script("window.motorbreath.events.length = 0;")
    before = d.execute_script("return document.getElementById('pace-out').textContent")
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    here = "127.0.0.1:%d" % port
    c.request("POST", "/api/play?name=long", body=open(ahap, "rb").read(), headers={"Host": here, "Origin": "http://" + here})
    if c.getresponse().status != 202:
        fail("the file was not taken to play")
    wait(d, "return window.motorbreath.events.find((e) => e.event === 'file' && e.state === 'playing')", 10, "the file playing")
    # Its frames playing (a change sent while the board is prepared for it goes with the preparation):
    # serve's state shows the file's session (4 s and the warm-up: 1075 frames) under way.
    deadline, k = time.time() + 10, 0
    while time.time() < deadline:
        k += 1
        d.execute_script("window.motorbreath.send({command: 'state', id: 'file-' + arguments[0]})", k)
        time.sleep(0.2)
        st = d.execute_script("return window.motorbreath.events.find((e) => e.id === 'file-' + arguments[0])", k)
        if st and 0 < st.get("frames_played", 0) and st.get("frames_total", 1e9) <= 1200:
            break
    else:
        fail("the file's session never showed in serve's state")
    d.execute_script("document.getElementById('pace-up').click();")
    refused = wait(d, "return window.motorbreath.events.find((e) => e.event === 'refused' && e.command === 'pace')", 5, "the refused pace")
    deadline = time.time() + 2
    while time.time() < deadline and d.execute_script("return document.getElementById('pace-out').textContent") != before:
        time.sleep(0.05)
    after = d.execute_script("return {out: document.getElementById('pace-out').textContent, note: document.getElementById('pace-note').textContent}")
    d.execute_script("window.motorbreath.send({command: 'state', id: 'after-refusal'})")
    state = wait(d, "return window.motorbreath.events.find((e) => e.id === 'after-refusal')", 5, "serve's state")
    if after["out"] != before or after["note"] or "%.1f /min" % state["bpm"] != before:
        fail("a refused pace stayed: shown %s (was %s), serve's state %s, refusal %s" % (after, before, state.get("bpm"), refused))
    # The strength slider moved by the keys while the file plays: refused, it shows serve's strength again.
    strength = d.execute_script("return document.getElementById('intensity').value")
    d.find_element("id", "intensity").send_keys(Keys.ARROW_LEFT * 3)
    wait(d, "return window.motorbreath.events.find((e) => e.event === 'refused' && e.command === 'intensity')", 5, "the refused strength")
    deadline = time.time() + 2
    while time.time() < deadline and d.execute_script("return document.getElementById('intensity').value") != strength:
        time.sleep(0.05)
    shown = d.execute_script("return [document.getElementById('intensity').value, document.getElementById('intensity-out').textContent]")
    d.execute_script("window.motorbreath.send({command: 'state', id: 'after-strength'})")
    state2 = wait(d, "return window.motorbreath.events.find((e) => e.id === 'after-strength')", 5, "serve's state")
    if shown[0] != strength or shown[1] != strength + " %" or round(state2["intensity"] * 100) != int(strength):
        fail("a refused strength stayed: shown %s (was %s), serve's intensity %s" % (shown, strength, state2["intensity"]))
    wait(d, "return window.motorbreath.events.find((e) => e.event === 'file' && e.state !== 'playing')", 10, "the file's end")
    return {"shown": before, "refusal": refused["reason"], "state_bpm": state["bpm"], "strength_shown": shown, "state_intensity": state2["intensity"]}


def cycle_after_finish(d):
    """Finish: every cycle text the page showed until serve's `finished` is at most the total."""
    d.execute_script("""window.cycles = []; new MutationObserver(() => window.cycles.push(document.getElementById('cycle').textContent))
        .observe(document.getElementById('cycle'), {childList: true, characterData: true, subtree: true});
        window.motorbreath.events.length = 0; document.getElementById('finish').click();""")
    wait(d, "return window.motorbreath.events.find((e) => e.event === 'finished')", 30, "serve's finished")
    time.sleep(0.3)
    texts = sorted(set(d.execute_script("return window.cycles")))
    over = [t for t in texts if " of " in t and int(t.split()[1]) > int(t.split()[3])]
    if over or not any(" of " in t for t in texts):
        fail("the page counted past the last cycle after Finish: %s" % texts)
    return texts


def main():
    folder = tempfile.mkdtemp(prefix="motorbreath-preview.")
    board = start([args.motorbreath, "sim-board"])
    pty = first_line(board, "/dev/")
    serve = start([args.motorbreath, "serve", "--port", pty, "--http-port", "0", "--pattern", "2-0-2"])
    url = first_line(serve, "open ").split()[1]
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    result = {}
    desk = browser(1280, 800)
    try:
        open_drawn(desk, url)
        result["1280x800"] = plot(desk, "1280x800")
    finally:
        desk.quit()
    d = browser(390, 844)
    try:
        open_drawn(d, url)
        result["390x844"] = plot(d, "390x844")
        result["pace"] = pace(d)
        result["refused_pace"] = refused_pace(d, port, folder)
        wait(d, "return window.motorbreath.drawn", 15, "the breath again after the file")
        result["cycles_after_finish"] = cycle_after_finish(d)
    finally:
        d.quit()
    result["exit_after_finish"] = serve.wait(15)
    if result["exit_after_finish"] != 0:
        fail("serve exited %s after Finish (want 0)" % result["exit_after_finish"])
    print(json.dumps(result))


try:
    main()
finally:
    stop_children()
