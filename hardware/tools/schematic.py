#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Draws each build's schematic (SVG) from a board's netlist.json: python3 stdlib only.

    python3 hardware/tools/schematic.py            # writes hardware/{avr,stm32}/schematic-<build>.svg
    python3 hardware/tools/schematic.py --check    # exits 1 if an SVG is not what its netlist draws

Every part is a box with its pins (number or name, side from the netlist); every pin ends in a net
label, and pins with the same label are one wire. A pin no net names is marked "nc". The netlist is
the source: edit it, rerun this, commit both.
"""
import html
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BOARDS = [os.path.join(HERE, "..", "avr"), os.path.join(HERE, "..", "stm32")]

ROW_H, PIN_H, STUB = 150, 22, 22
NET_COLOURS = {"+5V": "#c0392b", "3V3": "#d35400", "GND": "#2c3e50"}


def for_build(items, build):
    return [i for i in items if build in i.get("builds", [build])]


def net_of(nets, ref, pin):
    for net in nets:
        if f"{ref}.{pin}" in net["pins"]:
            return net["name"]
    return None


def esc(text):
    return html.escape(str(text), quote=True)


def draw(netlist, build):
    parts = for_build(netlist["parts"], build)
    nets = for_build(netlist["nets"], build)
    # Columns in use, packed left to right; each as wide as its widest box plus room for net labels.
    cols = sorted({p["at"][0] for p in parts})
    widths = {c: max(box_width(p) for p in parts if p["at"][0] == c) for c in cols}
    col_x, x = {}, 130
    for c in cols:
        col_x[c] = x
        x += widths[c] + 190
    out, max_x, max_y = [], 0, 0
    for part in parts:
        col, row = part["at"]
        left = [p for p in part["pins"] if p["side"] == "l"]
        right = [p for p in part["pins"] if p["side"] == "r"]
        height = max(len(left), len(right), 1) * PIN_H + 44
        BOX_W = box_width(part)
        x = col_x[col]
        y = 70 + row * ROW_H
        out.append(f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{height}" class="part"/>')
        out.append(f'<text x="{x + BOX_W / 2}" y="{y + 15}" class="ref">{esc(part["ref"])}</text>')
        value = part["value"]
        if "packages" in part:
            value += ". Pin numbers in brackets: " + " / ".join(part["packages"])
        value_lines = wrap(value, max(26, BOX_W // 6))
        for i, line in enumerate(value_lines):
            out.append(f'<text x="{x + BOX_W / 2}" y="{y + height + 13 + 12 * i}" class="value">{esc(line)}</text>')
        for side, pins in (("l", left), ("r", right)):
            for i, pin in enumerate(pins):
                py = y + 34 + i * PIN_H
                x0 = x if side == "l" else x + BOX_W
                x1 = x0 - STUB if side == "l" else x0 + STUB
                out.append(f'<line x1="{x0}" y1="{py}" x2="{x1}" y2="{py}" class="stub"/>')
                label = pin.get("name", pin["pin"])
                if "packages" in part:  # the pin's number in each package, in the order the value names them
                    label += " (" + " / ".join(numbers[pin["pin"]] for numbers in part["packages"].values()) + ")"
                tx, anchor = (x0 + 4, "start") if side == "l" else (x0 - 4, "end")
                out.append(f'<text x="{tx}" y="{py + 4}" class="pin" text-anchor="{anchor}">{esc(label)}</text>')
                net = net_of(nets, part["ref"], pin["pin"])
                colour = NET_COLOURS.get(net, "#1a5fb4") if net else "#999"
                nx, nanchor = (x1 - 3, "end") if side == "l" else (x1 + 3, "start")
                out.append(f'<circle cx="{x1}" cy="{py}" r="2.5" fill="{colour}"/>')
                out.append(f'<text x="{nx}" y="{py + 4}" class="net" fill="{colour}" text-anchor="{nanchor}">'
                           f'{esc(net or "nc")}</text>')
        max_x = max(max_x, x + BOX_W + 140)
        max_y = max(max_y, y + height + 16 + 12 * len(value_lines))
    title = f'{netlist["board"]}: build {build}'
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{max_x}" height="{max_y + 40}" '
        f'viewBox="0 0 {max_x} {max_y + 40}" font-family="DejaVu Sans, Arial, sans-serif">',
        "<style>.part{fill:#fffbe6;stroke:#333;stroke-width:1.5}.stub{stroke:#333;stroke-width:1.5}"
        ".ref{font-size:13px;font-weight:bold;text-anchor:middle}.value{font-size:10px;text-anchor:middle;fill:#444}"
        ".pin{font-size:10px}.net{font-size:11px;font-weight:bold}.title{font-size:15px;font-weight:bold}"
        ".note{font-size:11px;fill:#444}</style>",
        f'<rect width="100%" height="100%" fill="white"/>',
        f'<text x="16" y="24" class="title">{esc(title)}</text>',
        '<text x="16" y="42" class="note">Pins with the same net label are one wire; nc = not connected. '
        'Drawn by hardware/tools/schematic.py from netlist.json (CERN-OHL-P-2.0).</text>',
    ]
    return "\n".join(head + out + ["</svg>", ""])


def box_width(part):
    """Wide enough for the longest left and right pin names side by side (about 6 px a character)."""
    def longest(side):
        return max([len(p.get("name", p["pin"])) for p in part["pins"] if p["side"] == side] or [0])
    extra = 4 * len(part.get("packages", {})) if "packages" in part else 0
    return max(150, 6 * (longest("l") + longest("r") + 2 * extra) + 24)


def wrap(text, width):
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + [line] if line else lines


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for board in BOARDS:
        with open(os.path.join(board, "netlist.json"), encoding="utf-8") as f:
            netlist = json.load(f)
        for build in netlist["builds"]:
            path = os.path.normpath(os.path.join(board, f"schematic-{build}.svg"))
            svg = draw(netlist, build)
            if check:
                try:
                    with open(path, encoding="utf-8") as f:
                        if f.read() != svg:
                            stale.append(path)
                except FileNotFoundError:
                    stale.append(path)
            else:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(svg)
                print(path)
    if stale:
        print("out of date (run python3 hardware/tools/schematic.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
