#!/usr/bin/env python3
# Flashing through the real path: Debian's Arduino bootloaders run in simavr behind the harness's pty
# (--bootloader), the real avrdude writes and verifies the firmware through them, and the board then runs
# it and answers HELLO with INFO. Cases: optiboot on an empty flash at 115200 (the flash dumped at exit
# must equal the hex); the old ATmegaBOOT at 57600, and at 115200 avrdude cannot sync; a page whose SPM
# write goes wrong (--spoil-page) fails avrdude's verify; over a running firmware, a probe without -U finds
# optiboot and -D writes without erasing; after a watchdog reset optiboot starts the firmware again and
# the old bootloader resets every 16 ms, reopening the port or not; Debian's shipped optiboot hex does not fit.
#
#   python3 test/flash_sim_test.py BUILD_DIR ARDUINO_BOOTLOADERS [--only a,b,c,d,e,shipped] [--break WHAT]
#
# (make flash-test runs it.) Prints each case's measured figures; exits non-zero on the first failed
# check. --break WHAT breaks one thing on purpose, and the run must then fail: no-reset (the pty's open
# does not reset the board), old-baud (case b flashes at 115200), no-spoil (case c's page written right),
# host-rate (HELLO at 115200 against the firmware's 500000), dump (one byte of the expected image changed),
# erase (case d without -D).
# SPDX-License-Identifier: Apache-2.0
import os, select, signal, subprocess, sys, termios, time, tty

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sense_sim_test import MSG, check, cobs_decode, cobs_encode, crc16, le  # noqa: E402

TIME_LIMIT = 170  # s, the whole run
BREAK = sys.argv[sys.argv.index("--break") + 1] if "--break" in sys.argv else ""
PAGE = 128
running = []  # (harness process, its flash dump path), killed and removed in the end whatever happened


def read_hex(path):
    """Intel hex -> {address: byte} (record types 00, 01, 02, 04; start addresses skipped)."""
    mem, base = {}, 0
    for line in open(path):
        line = line.strip()
        if not line.startswith(":"):
            continue
        r = bytes.fromhex(line[1:])
        check(sum(r) & 0xFF == 0 and len(r) == r[0] + 5, f"{path}: bad record {line}")
        addr, kind, data = base + (r[1] << 8 | r[2]), r[3], r[4:-1]
        if kind == 0:
            mem.update((addr + i, b) for i, b in enumerate(data))
        elif kind == 1:
            break
        elif kind in (2, 4):
            base = int.from_bytes(data, "big") << (4 if kind == 2 else 16)
    return mem


class Harness:
    """motorbreath-avr-sim with a bootloader; the flash it dumps at exit is the oracle for what SPM did."""

    def __init__(self, build, boot_hex, *args):
        self.dump = f"{build}/flash-test-{os.getpid()}-{len(running)}.bin"
        cmd = [f"{build}/motorbreath-avr-sim", "--bootloader", boot_hex, "--match-baud", "--dump-flash", self.dump,
               "--keep-nice", *args]
        if BREAK == "no-reset":
            cmd.append("--no-auto-reset")
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        running.append((self.proc, self.dump))
        self.pty = self.proc.stdout.readline().decode().strip()
        if not self.pty.startswith("/dev/"):
            self.proc.kill()
            raise AssertionError(f"no pty from the harness: {self.proc.communicate()[1].decode().strip()}")

    def close(self):
        """Stops the harness; returns (its stderr, the 32 KB flash)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        _, err = self.proc.communicate(timeout=10)
        running.remove((self.proc, self.dump))
        flash = open(self.dump, "rb").read()
        os.unlink(self.dump)
        return err.decode(), flash


def avrdude(pty, baud, image, *extra):
    """The real avrdude through the pty (image None: only a probe, no -U): (exit code, output, wall seconds)."""
    cmd = ["avrdude", *extra, "-c", "arduino", "-p", "m328p", "-b", str(baud), "-P", pty]
    cmd += ["-U", f"flash:w:{image}:i"] if image else []
    t0 = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    return r.returncode, r.stdout.decode(errors="replace"), time.monotonic() - t0


class Port:
    """The port opened as a host does (which resets the board through its bootloader), at the firmware's
    500000 baud; frames in and out (protocol.md)."""

    def __init__(self, pty):
        self.t0 = time.monotonic()
        self.fd = os.open(pty, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        rate = termios.B115200 if BREAK == "host-rate" else termios.B500000
        attrs = termios.tcgetattr(self.fd)
        attrs[4] = attrs[5] = rate
        termios.tcsetattr(self.fd, termios.TCSANOW, attrs)
        termios.tcflush(self.fd, termios.TCIFLUSH)  # what the board said before this open
        self.rx, self.seq = bytearray(), 0

    def send(self, type_, payload=b""):
        self.seq = self.seq % 255 + 1
        frame = bytes([1, type_, self.seq, len(payload)]) + payload
        os.write(self.fd, cobs_encode(frame + crc16(frame).to_bytes(2, "little")))

    def wait_for(self, type_, timeout):
        """The payload of the next frame of that type within timeout s, else None."""
        end = time.monotonic() + timeout
        while True:
            while 0 in self.rx:
                i = self.rx.index(0)
                block, self.rx = bytes(self.rx[:i]), self.rx[i + 1:]
                raw = cobs_decode(block) if block else b""
                if len(raw) >= 6 and crc16(raw[:-2]) == le(raw, len(raw) - 2, 2) and raw[1] == type_:
                    return raw[4:-2]
            left = end - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return None
            self.rx += os.read(self.fd, 4096)

    def boot(self, timeout=5.0):
        """Waits for the firmware's boot INFO (bytes sent to a bootloader are its commands: send nothing
        before), then HELLO: (the INFO reply, seconds from the open to the boot INFO)."""
        check(self.wait_for(MSG["INFO"], timeout) is not None, f"no boot INFO within {timeout} s of opening")
        booted = time.monotonic() - self.t0
        self.send(MSG["HELLO"])
        info = self.wait_for(MSG["INFO"], 1.0)
        check(info is not None, "no INFO reply to HELLO")
        return info, booted

    def close(self):
        os.close(self.fd)


def hello(pty):
    """Opens the port, takes the firmware's INFO, closes: (INFO payload, seconds from the open to boot INFO)."""
    port = Port(pty)
    try:
        return port.boot()
    finally:
        port.close()


def check_image(flash, app, boot, fresh):
    """The dumped flash holds the application image, the bootloader untouched, and (fresh) nothing else."""
    if BREAK == "dump":
        app = dict(app)
        app[0x100] ^= 1
    bad = [a for a, v in app.items() if flash[a] != v]
    check(not bad, f"{len(bad)} flash bytes differ from the hex, first at {bad[0] if bad else 0:#06x}")
    check(all(flash[a] == v for a, v in boot.items()), "the bootloader's bytes changed")
    if fresh:
        stray = [a for a in range(min(boot)) if a not in app and flash[a] != 0xFF]
        check(not stray, f"{len(stray)} bytes outside the image are not erased, first at {stray[0] if stray else 0:#06x}")


def spm_writes(err):
    for line in err.splitlines():
        if "page writes" in line:
            return int(line.split(" page writes")[0].split()[-1])
    raise AssertionError(f"no SPM figures from the harness: {err.strip()}")


def flash_and_answer(pty, baud, image, app):
    """avrdude writes `image` at `baud` and its own verify passes; then the erm firmware answers HELLO with
    INFO. Returns (seconds avrdude took, seconds from the port's open to INFO)."""
    rc, out, secs = avrdude(pty, baud, image)
    check(rc == 0 and f"{len(app)} bytes of flash verified" in out, f"avrdude exit {rc}:\n{out}")
    info, boot_s = hello(pty)
    check(b"motorbreath-avr-erm" in info, f"INFO names another board: {info!r}")
    return secs, boot_s


def check_fresh_flash(err, flash, app, boot):
    """An empty flash written with `app`: the dump holds it and nothing else, and the harness counted one SPM
    page write per page the image spans. Returns the pages written."""
    check_image(flash, app, boot, fresh=True)
    pages = spm_writes(err)
    check(pages == (max(app) // PAGE + 1), f"{pages} pages written, the image spans {max(app) // PAGE + 1}")
    return pages


def test_a(build, boot_dir):
    """Optiboot (115200) on an empty flash: avrdude writes and verifies, the firmware answers."""
    image, boot_hex = f"{build}/erm/motorbreath-avr.hex", f"{build}/optiboot/optiboot_atmega328.hex"
    app, boot = read_hex(image), read_hex(boot_hex)
    h = Harness(build, boot_hex)
    try:
        secs, boot_s = flash_and_answer(h.pty, 115200, image, app)
    finally:
        err, flash = h.close()
    pages = check_fresh_flash(err, flash, app, boot)
    print(f"  optiboot 115200, empty flash: avrdude wrote and verified {len(app)} B ({pages} pages by SPM) in "
          f"{secs:.2f} s; the port's next open to INFO {boot_s:.2f} s; the dumped flash equals the hex")


def test_b(build, boot_dir):
    """The old bootloader (ATmegaBOOT, 57600): flashes and runs; avrdude at 115200 cannot sync."""
    image, boot_hex = f"{build}/erm/motorbreath-avr.hex", f"{boot_dir}/atmega/ATmegaBOOT_168_atmega328.hex"
    app, boot = read_hex(image), read_hex(boot_hex)
    h = Harness(build, boot_hex)
    try:
        secs, boot_s = flash_and_answer(h.pty, 115200 if BREAK == "old-baud" else 57600, image, app)
        rc2, out2, secs2 = avrdude(h.pty, 115200, image, "-x", "attempts=1")
        quote = next((l.strip() for l in out2.splitlines() if "not in sync" in l), None)
        check(rc2 != 0 and quote, f"avrdude at 115200 against the 57600 bootloader: exit {rc2}\n{out2}")
        info2, boot2_s = hello(h.pty)  # the failed attempt left the firmware in place
    finally:
        err, flash = h.close()
    pages = check_fresh_flash(err, flash, app, boot)
    print(f"  ATmegaBOOT 57600: avrdude wrote and verified {len(app)} B ({pages} pages) in {secs:.2f} s; open to INFO "
          f"{boot_s:.2f} s. At 115200: exit {rc2} after {secs2:.2f} s, \"{quote}\"; the firmware still answers "
          f"({boot2_s:.2f} s)")


def test_c(build, boot_dir):
    """A page written wrong (--spoil-page 3): avrdude's verify reports it and exits non-zero."""
    image, boot_hex = f"{build}/erm/motorbreath-avr.hex", f"{build}/optiboot/optiboot_atmega328.hex"
    app = read_hex(image)
    h = Harness(build, boot_hex, *([] if BREAK == "no-spoil" else ["--spoil-page", "3"]))
    try:
        rc, out, secs = avrdude(h.pty, 115200, image)
    finally:
        err, flash = h.close()  # (the harness may have stopped: the MCU crashes running the spoiled page)
    quote = next((l.strip() for l in out.splitlines() if "!=" in l), None)
    check(rc != 0 and quote and "verification mismatch" in out, f"avrdude exit {rc} on a spoiled page:\n{out}")
    addr = int(quote.split(" at addr ")[1].split()[0], 16)
    check(addr // PAGE == 3, f"the mismatch at {addr:#06x} is not in page 3")
    diff = [a for a, v in app.items() if flash[a] != v]
    check(diff == [addr], f"the flash differs from the hex at {[hex(a) for a in diff]}")
    print(f"  spoiled page 3: avrdude exit {rc} after {secs:.2f} s: \"{quote}\"; the flash differs at {addr:#06x} only")


def test_d(build, boot_dir):
    """Optiboot over a running firmware (lra): a probe finds it, -D writes erm without erasing first."""
    image, old, boot_hex = (f"{build}/erm/motorbreath-avr.hex", f"{build}/lra/motorbreath-avr.hex",
                            f"{build}/optiboot/optiboot_atmega328.hex")
    app, before = read_hex(image), read_hex(old)
    h = Harness(build, boot_hex, "--elf", f"{build}/lra/motorbreath-avr.elf")
    try:
        info, boot_s = hello(h.pty)
        check(b"motorbreath-avr-lra" in info, f"the preloaded firmware did not answer: {info!r}")
        rc, out, probe_s = avrdude(h.pty, 115200, None, "-x", "attempts=1")
        check(rc == 0 and "0x1e950f" in out, f"probe at 115200: exit {rc}\n{out}")
        rc, out, secs = avrdude(h.pty, 115200, image, *([] if BREAK == "erase" else ["-D"]))
        check(rc == 0 and f"{len(app)} bytes of flash verified" in out and "erasing chip" not in out,
              f"avrdude -D exit {rc}:\n{out}")
        info, boot2_s = hello(h.pty)
        check(b"motorbreath-avr-erm" in info, f"INFO after flashing names another board: {info!r}")
    finally:
        err, flash = h.close()
    check_image(flash, app, read_hex(boot_hex), fresh=False)
    first_kept = (max(app) // PAGE + 1) * PAGE
    tail = [a for a in before if a >= first_kept]
    check(tail and all(flash[a] == before[a] for a in tail), "the old firmware's pages past the new image changed")
    print(f"  optiboot over lra: open to the old firmware's INFO {boot_s:.2f} s; probe (no -U, 115200) exit 0 in "
          f"{probe_s:.2f} s, signature 0x1e950f; -D write and verify {secs:.2f} s, {spm_writes(err)} pages; open to "
          f"the new INFO {boot2_s:.2f} s; lra's {len(tail)} bytes past the image's last page stay (no erase)")


def play_until_fault(port):
    """fault-cli: 50 frames into playback the firmware hangs with interrupts off, so its watchdog resets it."""
    port.send(MSG["CONFIGURE"], (1000).to_bytes(2, "little") + bytes([1]) + (500).to_bytes(2, "little") +
              bytes([0, 0, 0]) + (100).to_bytes(2, "little"))
    check(port.wait_for(MSG["STATUS"], 1.0) is not None, "CONFIGURE unanswered")
    port.send(MSG["CLOCK_REQ"], (7).to_bytes(4, "little"))
    clk = port.wait_for(MSG["CLOCK"], 1.0)
    check(clk is not None, "CLOCK_REQ unanswered")
    start_tick = le(clk, 4, 8) + 16_000_000 // 20  # 50 ms on
    port.send(MSG["START"], (0).to_bytes(4, "little") + start_tick.to_bytes(8, "little") + (16000 << 32).to_bytes(8, "little"))
    for first in (0, 50):
        port.send(MSG["FRAMES"], first.to_bytes(4, "little") + bytes([1, 50]) + bytes([100] * 50))
    return time.monotonic()


def test_e(build, boot_dir):
    """A watchdog reset: optiboot starts the firmware again; the old bootloader loops, a reopen or not."""
    elf = f"{build}/fault-cli/motorbreath-avr.elf"
    figures = []
    for name, boot_hex in (("optiboot", f"{build}/optiboot/optiboot_atmega328.hex"),
                           ("ATmegaBOOT", f"{boot_dir}/atmega/ATmegaBOOT_168_atmega328.hex")):
        rec = f"{build}/flash-test-{os.getpid()}-{name}.rec"
        h = Harness(build, boot_hex, "--elf", elf, "--record", rec)
        port = Port(h.pty)
        try:
            port.boot()
            t_fault = play_until_fault(port)
            again = port.wait_for(MSG["INFO"], 2.0)
            back_s = time.monotonic() - t_fault
            port.close()
            port = Port(h.pty)  # the host gives up and opens the port again: the RESET pin
            reopened = port.wait_for(MSG["INFO"], 2.5)
        finally:
            port.close()
            err, _ = h.close()
        resets = [int(line.split()[1]) for line in open(rec) if line.startswith("reset ")]
        os.unlink(rec)
        gaps = [(b - a) / 16e3 for a, b in zip(resets, resets[1:]) if b > a]
        if name == "optiboot":
            check(again is not None and reopened is not None, f"optiboot: the firmware did not come back (after the fault: {again is not None}, after a reopen: {reopened is not None}; {err.strip()})")
            figures.append(f"optiboot: INFO again {back_s:.2f} s after START (the fault, then the 250 ms watchdog), "
                           f"{len(resets)} resets")
        else:
            check(again is None and reopened is None, "ATmegaBOOT: the firmware came back after its watchdog reset")
            check(len(gaps) > 50 and max(gaps[2:]) < 20, f"ATmegaBOOT: {len(resets)} resets, gaps {gaps[:5]} ms")
            figures.append(f"ATmegaBOOT: no INFO in 2 s, nor in 2.5 s after a reopen; {len(resets)} resets, "
                           f"{sorted(gaps)[len(gaps) // 2]:.1f} ms apart (median; shorter once, at the reopen)")
    print("  " + "; ".join(figures))


def test_shipped(build, boot_dir):
    """Debian's optiboot_atmega328.hex runs past the end of flash: the harness refuses it."""
    boot_hex = f"{boot_dir}/optiboot/optiboot_atmega328.hex"
    top = max(read_hex(boot_hex))
    r = subprocess.run([f"{build}/motorbreath-avr-sim", "--bootloader", boot_hex], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=10)
    check(top > 0x7FFF and r.returncode != 0, f"shipped optiboot: last byte {top:#06x}, harness exit {r.returncode}")
    print(f"  Debian's shipped optiboot_atmega328.hex: last byte at {top:#06x} (flash ends at 0x7fff): "
          f"the harness refuses it ({r.stderr.decode().strip()})")


TESTS = dict(a=test_a, b=test_b, c=test_c, d=test_d, e=test_e, shipped=test_shipped)


def on_alarm(sig, frame):
    raise TimeoutError(f"the flash test ran over its {TIME_LIMIT} s limit")


if __name__ == "__main__":
    build, boot_dir = sys.argv[1], sys.argv[2]
    only = sys.argv[sys.argv.index("--only") + 1].split(",") if "--only" in sys.argv else list(TESTS)
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(TIME_LIMIT)
    t0 = time.monotonic()
    try:
        for name in only:
            print(f"{name}: {TESTS[name].__doc__.splitlines()[0]}", flush=True)
            TESTS[name](build, boot_dir)
    finally:
        for p, dump in running:
            p.kill()
            p.wait()
            if os.path.exists(dump):
                os.unlink(dump)
    print(f"flash simavr test: all passed in {time.monotonic() - t0:.1f} s" + (f" (broken: {BREAK}?)" if BREAK else ""))
