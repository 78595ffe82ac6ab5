#!/usr/bin/env python3
# The page's pattern files in a real browser (headless Chromium through selenium): a Meta/Lofelt .haptic file,
# written here by hand, dropped on the plot (a DataTransfer drop event), previewed, exported as .haptic and
# .hjif beside AHAP, and played on the simulated board, judged on the sim-board's drive log against
# `render --ahap` of the same file. Prints one JSON line of measurements; exits 1 with the reason on a failure.
# SPDX-License-Identifier: Apache-2.0
import argparse, json, os, subprocess, sys, tempfile, time

from browser_support import browser, drive_runs, fail, first_line, open_drawn, read_drive_log, start, stop_children, tick_at, ENV

ap = argparse.ArgumentParser()
ap.add_argument("--motorbreath", default=".build/debug/motorbreath")
args = ap.parse_args()

# 1 s at amplitude 0.64 (intensity 0.8), 0.5 s of nothing, 0.5 s at 0.16 (intensity 0.4): the steady AHAP of
# serve_page.py, as a .haptic clip (data model 1.0.0, the field names of Meta's schema).
CLIP = {"version": {"major": 1, "minor": 0, "patch": 0},
        "metadata": {"editor": "hand", "author": "", "source": "", "project": "", "tags": [], "description": "steady"},
        "signals": {"continuous": {"envelopes": {"amplitude": [
            {"time": 0.0, "amplitude": 0.64}, {"time": 1.0, "amplitude": 0.64}, {"time": 1.0, "amplitude": 0.0},
            {"time": 1.5, "amplitude": 0.0}, {"time": 1.5, "amplitude": 0.16}, {"time": 2.0, "amplitude": 0.16}]}}}}


def render_rows(path):
    out = subprocess.run([args.motorbreath, "render", "--ahap", path, "--format", "csv"], capture_output=True, text=True, check=True, env=ENV).stdout
    return [list(map(float, r.split(","))) for r in out.strip().split("\n")[1:]]


def wait_for(page, script, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = page.execute_script(script)
        if value:
            return value
        time.sleep(0.1)
    return None


def main():
    folder = tempfile.mkdtemp(prefix="motorbreath-files.")
    log = os.path.join(folder, "drive.log")
    clip = os.path.join(folder, "steady.haptic")
    with open(clip, "w") as f:
        json.dump(CLIP, f)
    board = start([args.motorbreath, "sim-board", "--drive-log", log])
    pty = first_line(board, "/dev/")
    serve = start([args.motorbreath, "serve", "--port", pty, "--http-port", "0", "--pattern", "2-1-2-1"])
    url = first_line(serve, "open ").split()[1]
    result = {}
    page = browser(390, 844)
    try:
        open_drawn(page, url)
        # Dropped as a file is dropped from a desktop: a drop event carrying it, on the plot, while a preset's
        # preview is still on its way (held back 1.5 s here): the older answer must not take the plot back.
        page.execute_script("""
            const real = window.fetch;
            window.fetch = (url, init) => String(url).includes('pattern=')
                ? new Promise((done) => setTimeout(() => done(real(url, init)), 1500)) : real(url, init);
            const select = document.getElementById('preset');
            select.dispatchEvent(new Event('change'));
            window.motorbreath.preview = null; window.motorbreath.played = null;
            const t = new DataTransfer();
            t.items.add(new File([arguments[0]], 'steady.haptic', { type: '' }));
            const drop = document.getElementById('drop');
            drop.dispatchEvent(new DragEvent('drop', { dataTransfer: t, bubbles: true, cancelable: true }));""", json.dumps(CLIP))
        preview = wait_for(page, "return window.motorbreath.preview")
        time.sleep(2.0)
        if page.execute_script("return window.motorbreath.preview") != preview:
            fail("a preset's preview that came late took the plot from the dropped file")
        if not preview or "error" in preview:
            fail("no preview of the dropped .haptic file: %s" % preview)
        rows = render_rows(clip)
        by_time = {round(r[0], 4): r for r in rows}
        worst = max(abs(by_time[round(t, 4)][1] - preview["intensity"][i]) for i, t in enumerate(preview["time_s"]))
        result.update(preview_points=len(preview["time_s"]), preview_vs_render=worst, preview_duration=preview["duration_s"])
        if worst > 1e-4 or abs(preview["duration_s"] - 2.0) > 1e-9:
            fail("the preview is not render's: %s" % result)

        # The exports beside AHAP: each read back by render as the same pattern.
        exports = wait_for(page, "const e = window.motorbreath.exports; return e && e.haptic && e.hjif && e;")
        if not exports:
            fail("no .haptic and .hjif exports of the dropped file")
        links = page.execute_script("return ['export-haptic', 'export-hjif'].map((id) => [document.getElementById(id).getAttribute('download'), !!document.getElementById(id).href]);")
        result["export_links"] = links
        if links != [["steady.haptic", True], ["steady.hjif", True]]:
            fail("the export links are not the file's: %s" % links)
        for kind in ("haptic", "hjif"):
            path = os.path.join(folder, "exported." + kind)
            with open(path, "w") as f:
                f.write(exports[kind])
            again = render_rows(path)
            diff = max(abs(a[1] - b[1]) for a, b in zip(rows, again))
            result["export_%s_vs_file" % kind] = round(diff, 5)
            if len(again) != len(rows) or diff > 0.01:
                fail("the %s export does not render as the file: %d frames against %d, worst %.4f" % (kind, len(again), len(rows), diff))

        # Played on the board in the breath's place; judged on the drive log against render's drive.
        asked_ns = time.monotonic_ns()
        page.execute_script("document.getElementById('play').click();")
        events = []
        deadline = time.time() + 15
        while time.time() < deadline:
            events = [e for e in page.execute_script("return window.motorbreath.events") if e["event"] == "file"]
            if [e["state"] for e in events][-2:] == ["playing", "played"]:
                break
            time.sleep(0.05)
        answer = page.execute_script("return window.motorbreath.played")
        result["play_answer"] = answer
        if not answer or answer["status"] != 202 or [e["state"] for e in events][-2:] != ["playing", "played"]:
            fail("the .haptic file did not play: POST answered %s, file events %s" % (answer, events))
        time.sleep(0.5)
        header, changes = read_drive_log(log)
        ask, hz = tick_at(header, asked_ns), header["hz"]
        runs = drive_runs(changes, ask)
        # The file's first part: 1 s and its 0.3 s warm-up, ended by the first brake (render's too).
        first = next((i for i, r in enumerate(runs) if r[1] and abs(r[1] - r[0] - 1.296 * hz) < 0.02 * hz), None)
        if first is None or first + 1 >= len(runs):
            fail("the drive log after Play has no run of the file's first part (1.296 s with the warm-up): %s" % runs[:6])
        brake_s = next(r[0] for r in rows if r[2] < 0)
        t0 = runs[first][1] - brake_s * hz

        def level_at(tick):
            return next((lv for (t, lv), (u, _) in zip(changes, changes[1:]) if t <= tick < u), changes[-1][1])
        compared, worst_level = 0, 0
        for r in rows:
            if r[0] < 0.15:
                continue  # the first kick: the session warmed the motor for 0.3 s (render starts from rest)
            worst_level = max(worst_level, abs(level_at(t0 + (r[0] + 0.002) * hz) - round(r[2] * 32767)))
            compared += 1
        result.update(file_frames_compared=compared, file_worst_level_vs_render=worst_level)
        if compared < 460 or worst_level > 2:
            fail("the .haptic file's drive on the board is not render's: %s" % result)
    finally:
        page.quit()
        stop_children()
    print(json.dumps(result))


if __name__ == "__main__":
    try:
        main()
    finally:
        stop_children()
