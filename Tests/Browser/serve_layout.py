#!/usr/bin/env python3
# The page on a phone and by keyboard and reader (headless Chromium, touch): at 390 x 844 and 360 x 640 the
# first screen holds the circle, the phase and Pause/Stop (element boxes); Tab reaches every control in
# order; every visible text's contrast, from the computed styles, is at least 4.5:1 (3:1 large text, and
# controls' edges); the live region speaks once a phase (against serve's phase events); the palette moves
# by the arrow keys (serve's applied events); a bad file clears the plot and turns Play off. Prints one JSON line; exits 1 with the reason on a failed check.
# SPDX-License-Identifier: Apache-2.0
import argparse, json, os, sys, tempfile, time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from browser_support import browser, fail, first_line, open_drawn, start, stop_children

ap = argparse.ArgumentParser()
ap.add_argument("--motorbreath", default=".build/debug/motorbreath")
args = ap.parse_args()
TAB_ORDER = ["pause", "finish", "stop", "intensity", "pace-down", "pace-up", "palette", "preset", "ahap", "play", "export"]

FIRST_SCREEN = """const box = (id) => { const b = document.getElementById(id).getBoundingClientRect();
  return {id, top: Math.round(b.top), bottom: Math.round(b.bottom), left: Math.round(b.left), right: Math.round(b.right)}; };
return {w: innerWidth, h: innerHeight, scroll: scrollY, boxes: ['stage', 'phase', 'pause', 'stop'].map(box)};"""

# WCAG 2.1's relative luminance and contrast ratio, the colours from getComputedStyle; the background is the
# nearest ancestor's opaque background-color (the page's gradients are only in the circle and the palette,
# whose labels carry their own background).
CONTRAST = """const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
const lum = (c) => { const [r, g, b] = rgb(c).slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
const opaque = (c) => { const v = rgb(c); return v.length === 3 || (v.length === 4 && v[3] === 1); };
const bgOf = (e) => { for (let n = e; n; n = n.parentElement) { const c = getComputedStyle(n).backgroundColor; if (opaque(c)) return c; }
  return getComputedStyle(document.documentElement).backgroundColor; };
const shown = (e) => { const b = e.getBoundingClientRect(); const s = getComputedStyle(e);
  return b.width > 1 && b.height > 1 && s.visibility !== 'hidden' && s.display !== 'none' && +s.opacity > 0; };
const out = [];
for (const e of document.querySelectorAll('body *')) {
  if (!shown(e) || e.closest('.reader') || e.disabled || ['SCRIPT', 'CANVAS', 'OPTION'].includes(e.tagName)) continue;
  const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const s = getComputedStyle(e);
  if (own) {
    const size = parseFloat(s.fontSize), bold = +s.fontWeight >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    out.push({what: (e.id || e.className || e.tagName) + ': ' + e.textContent.trim().slice(0, 24), kind: 'text',
              ratio: ratio(s.color, bgOf(e)), need: large ? 3 : 4.5});
  }
  if (e.matches('button, select, a.button, label.file, #palette')) {
    out.push({what: (e.id || e.className || e.tagName) + ' edge', kind: 'control', ratio: ratio(s.borderTopColor, bgOf(e.parentElement)), need: 3});
  }
}
return out;"""


def first_screen(d, size):
    m = d.execute_script(FIRST_SCREEN)
    outside = [b for b in m["boxes"] if b["top"] < 0 or b["bottom"] > m["h"] or b["left"] < 0 or b["right"] > m["w"]]
    if m["scroll"] != 0 or outside:
        fail("%s: not on the first screen (%d x %d, scrolled %d): %s" % (size, m["w"], m["h"], m["scroll"], outside or m["boxes"]))
    return {b["id"]: [b["top"], b["bottom"]] for b in m["boxes"]}


def tab_order(d):
    d.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
    seen = []
    for _ in range(len(TAB_ORDER) + 6):
        ActionChains(d).send_keys(Keys.TAB).perform()
        seen.append(d.execute_script("const e = document.activeElement; return e ? (e.id || e.tagName) : null;"))
    order = [i for i in seen if i in TAB_ORDER]
    first = order[:len(TAB_ORDER)]
    if first != TAB_ORDER:
        fail("Tab order: %s (want %s)" % (seen, TAB_ORDER))
    return seen


def palette_keys(d):
    """The palette focused, ArrowDown x 6: serve applies a lower intensity (its own events say so)."""
    d.execute_script("document.getElementById('palette').focus(); window.motorbreath.events.length = 0;")
    for _ in range(6):
        ActionChains(d).send_keys(Keys.ARROW_DOWN).perform()
        time.sleep(0.05)
    deadline, applied = time.time() + 5, []
    while time.time() < deadline:
        applied = [e for e in d.execute_script("return window.motorbreath.events")
                   if e["event"] == "applied" and e["command"] == "intensity"]
        if applied and abs(applied[-1]["value"] - 0.7) < 1e-6:
            break
        time.sleep(0.1)
    if not applied or abs(applied[-1]["value"] - 0.7) > 1e-6:
        fail("the palette's arrow keys: serve applied %s (want intensity 0.7 after 6 x ArrowDown)" % applied[-3:])
    d.execute_script("window.motorbreath.send({command: 'intensity', value: 1})")
    return applied[-1]["value"]


def announcements(d, seconds):
    """What the live region said over `seconds`, against the phases serve announced meanwhile."""
    live = d.execute_script("return [...document.querySelectorAll('[aria-live]')].map((e) => e.id)")
    d.execute_script("""window.said = []; window.motorbreath.events.length = 0;
        new MutationObserver(() => window.said.push(document.getElementById('say').textContent))
          .observe(document.getElementById('say'), {childList: true, characterData: true, subtree: true});""")
    time.sleep(seconds)
    said = d.execute_script("return window.said")
    phases = [e for e in d.execute_script("return window.motorbreath.events") if e["event"] == "phase"]
    # Each phase's announcement comes as the page draws it, from the schedule (before serve's event): at the
    # window's edges one may fall on either side.
    if live != ["say"] or not phases or abs(len(said) - len(phases)) > 1:
        fail("aria-live: regions %s, %d announcements %s for %d phases" % (live, len(said), said, len(phases)))
    return {"announcements": len(said), "phases": len(phases), "said": said}


def bad_file(d, folder):
    """A file that is not AHAP dropped in: the old plot goes, Play and Export are off."""
    path = os.path.join(folder, "bad.ahap")
    with open(path, "w") as f:
        f.write("{ not json")
    d.execute_script("window.motorbreath.preview = null;")
    d.find_element("id", "ahap").send_keys(path)
    deadline = time.time() + 10
    while time.time() < deadline and not d.execute_script("return window.motorbreath.preview"):
        time.sleep(0.1)
    m = d.execute_script("""const c = document.getElementById('plot'), px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let inked = 0; for (let i = 3; i < px.length; i += 4) if (px[i]) inked++;
        return {inked, play: document.getElementById('play').disabled, href: document.getElementById('export').getAttribute('href'),
                note: document.getElementById('preview-note').textContent};""")
    if m["inked"] or not m["play"] or m["href"]:
        fail("a bad file left the plot or Play/Export on: %s" % m)
    return m["note"]


def main():
    board = start([args.motorbreath, "sim-board"])
    pty = first_line(board, "/dev/")
    serve = start([args.motorbreath, "serve", "--port", pty, "--http-port", "0", "--pattern", "2-1-2-1"])
    url = first_line(serve, "open ").split()[1]
    result = {}
    for width, height in ((390, 844), (360, 640)):
        size = "%dx%d" % (width, height)
        d = browser(width, height)
        try:
            open_drawn(d, url)
            result[size] = {"first_screen": first_screen(d, size)}
            deadline = time.time() + 10
            while time.time() < deadline and not d.execute_script("return document.getElementById('export').getAttribute('href')"):
                time.sleep(0.1)
            if width == 390:
                result[size]["tab"] = tab_order(d)
                low = [c for c in d.execute_script(CONTRAST) if c["ratio"] < c["need"]]
                checked = d.execute_script(CONTRAST)
                result["contrast_checked"] = len(checked)
                result["contrast_lowest"] = min(round(c["ratio"], 2) for c in checked)
                if low:
                    fail("contrast below WCAG AA: %s" % [(c["what"], round(c["ratio"], 2), c["need"]) for c in low])
                result["palette_keys_intensity"] = palette_keys(d)
                result["live"] = announcements(d, 6.5)
                result["bad_file"] = bad_file(d, tempfile.mkdtemp(prefix="motorbreath-layout."))
        finally:
            d.quit()
    print(json.dumps(result))


try:
    main()
finally:
    stop_children()
