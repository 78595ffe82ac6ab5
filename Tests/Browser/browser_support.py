# What the page's browser tests share: the motorbreath processes they start (each in a config directory of
# its own), headless Chromium at a phone's or a desk's size, the sim-board's drive log and its clock.
# SPDX-License-Identifier: Apache-2.0
import os, subprocess, sys, tempfile, time

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:
    sys.exit("FAIL: selenium is missing (bash .ci/install --tests installs it, with chromium and chromium-driver)")
for tool in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
    if not os.access(tool, os.X_OK):
        sys.exit("FAIL: %s is missing (bash .ci/install --tests installs chromium and chromium-driver)" % tool)

children = []
# Never the user's ~/.config: a profile or a remembered strength there would change what the tests see.
ENV = dict(os.environ, XDG_CONFIG_HOME=tempfile.mkdtemp(prefix="motorbreath-browser-config."), SE_OFFLINE="true")
BREATH_WORDS = {"inhale": "inhale", "hold": "hold", "exhale": "exhale", "hold-out": "hold (out)"}


def fail(why):
    print("FAIL: " + why, file=sys.stderr)
    sys.exit(1)


def start(argv):
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    children.append(p)
    return p


def first_line(p, prefix, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        line = p.stdout.readline()
        if line.startswith(prefix):
            return line.strip()
        if not line and p.poll() is not None:
            fail("%s exited: %s" % (p.args, p.stderr.read()))
    fail("no %r line from %s" % (prefix, p.args))


def stop_children():
    for p in children:
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()


def browser(width, height, touch=None):
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=%d,%d" % (width, height)):
        o.add_argument(a)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    if touch if touch is not None else width < 600:
        d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    return d


def open_drawn(d, url, timeout=15):
    """Opens the page and waits until it has drawn the breath."""
    d.get(url)
    deadline = time.time() + timeout
    while time.time() < deadline and not d.execute_script("return window.motorbreath && window.motorbreath.drawn"):
        time.sleep(0.1)
    if not d.execute_script("return window.motorbreath && window.motorbreath.drawn"):
        fail("the page drew no breath within %d s" % timeout)


def read_drive_log(path):
    header, changes = None, []
    for line in open(path):
        if line.startswith("# clock"):
            w = line.split()
            header = dict(hz=float(w[3]), offset=float(w[5]), boot=float(w[7]), drift=float(w[9]))
        elif not line.startswith("#") and line.strip():
            t, level = line.split()
            changes.append((int(t), int(level)))
    return header, changes


def drive_runs(changes, since):
    """Runs of forward drive in a drive log from tick `since` on: (first tick, tick it ended), the last
    (first tick, None) when the drive is still on at the log's end."""
    runs, begin = [], None
    for t, level in changes:
        if t >= since and level > 0 and begin is None:
            begin = t
        if begin is not None and level <= 0:
            runs.append((begin, t))
            begin = None
    if begin is not None:
        runs.append((begin, None))
    return runs


def tick_at(header, mono_ns):
    """The sim-board's tick at a monotonic instant (the drive log's header says how)."""
    return header["offset"] + (mono_ns - header["boot"]) * header["hz"] / 1e9 * (1 + header["drift"] / 1e6)
