#!/usr/bin/env python3
# The accelerometer end to end in simavr: the firmware with the emulated ADXL345 (sim/adxl345.c) probes
# DEVID, answers SENSE with SENSOR, and streams SAMPLES whose ticks and values are checked against the
# emulator's own record of every SPI transfer (what it served and at which cycle). Also: the SENSE
# refusals, a board without the part (bit 4 clear, SENSE unknown), the 1000 ms silence stop, and
# sampling while playing 1000 frames/s (no late frames, no underruns, the PWM pin still follows).
#
#   python3 test/sense_sim_test.py BUILD_DIR [--only NAME]      (make sense-test runs it)
#
# Prints the measured figures (read time against the nominal tick, in board ticks; the MCU's busy share)
# and exits non-zero on the first failed check.
# SPDX-License-Identifier: Apache-2.0
import os, select, signal, subprocess, sys, termios, time, tty

F_CPU = 16_000_000
MSG = dict(HELLO=0x01, CONFIGURE=0x02, CLOCK_REQ=0x03, FRAMES=0x04, START=0x05, STOP=0x06, HEARTBEAT=0x07,
           SENSE=0x0A, INFO=0x81, CLOCK=0x83, STATUS=0x84, NAK=0x85, PLAYED=0x86, SENSOR=0x88, SAMPLES=0x89)
NAK_BAD_MESSAGE, NAK_BAD_CONFIG, NAK_UNKNOWN_TYPE = 1, 5, 6
CAP_SENSOR = 0x10


def crc16(data):
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = (crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def cobs_encode(raw):
    out, block = bytearray(), bytearray()
    for b in raw:
        if b == 0:
            out += bytes([len(block) + 1]) + block
            block = bytearray()
        else:
            block.append(b)
            if len(block) == 254:
                out += b"\xff" + block
                block = bytearray()
    out += bytes([len(block) + 1]) + block
    return bytes(out) + b"\x00"


def cobs_decode(enc):
    out, i = bytearray(), 0
    while i < len(enc):
        code = enc[i]
        out += enc[i + 1:i + code]
        i += code
        if code != 0xFF and i < len(enc):
            out.append(0)
    return bytes(out)


def le(b, off, n):
    return int.from_bytes(b[off:off + n], "little")


class Board:
    """The harness with a host on its pty; the record file is the test's oracle."""

    def __init__(self, build, accel, variant="erm"):
        self.record = f"{build}/sense-test-{os.getpid()}.rec"
        self.proc = subprocess.Popen([f"{build}/motorbreath-avr-sim", "--elf", f"{build}/{variant}/motorbreath-avr.elf",
                                      "--record", self.record, "--accel", accel, "--keep-nice"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        pty = self.proc.stdout.readline().decode().strip()
        self.fd = os.open(pty, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        self.seq = 0
        self.rx = bytearray()
        self.pending = []
        self.send(MSG["HELLO"])  # bytes written before the harness bridges the pty can be lost: sync first
        _, self.info = self.wait_for(MSG["INFO"], 2.0)

    def send(self, type_, payload=b""):
        self.seq = (self.seq + 1) & 0xFF or 1
        frame = bytes([1, type_, self.seq, len(payload)]) + payload
        os.write(self.fd, cobs_encode(frame + crc16(frame).to_bytes(2, "little")))

    def messages(self, timeout, until=None):
        """Frames received within `timeout` s, (type, payload); with `until`, returns as soon as one of
        that type (or a NAK) has come, keeping what came after it for the next call."""
        got, end = self.pending, time.monotonic() + timeout
        self.pending = []
        while True:
            if until is not None:
                for i, (t, _) in enumerate(got):
                    if t == until or t == MSG["NAK"]:
                        self.pending = got[i + 1:]
                        return got[:i + 1]
            left = end - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return got
            self.rx += os.read(self.fd, 4096)
            while 0 in self.rx:
                i = self.rx.index(0)
                block, self.rx = bytes(self.rx[:i]), self.rx[i + 1:]
                raw = cobs_decode(block) if block else b""
                if len(raw) >= 6 and crc16(raw[:-2]) == le(raw, len(raw) - 2, 2):
                    got.append((raw[1], raw[4:-2]))

    def wait_for(self, type_, timeout=1.0):
        got = self.messages(timeout, until=type_)
        if got and got[-1][0] in (type_, MSG["NAK"]):
            return got[-1]
        raise AssertionError(f"no reply of type {type_:#x}")

    def close(self):
        self.proc.send_signal(signal.SIGTERM)
        _, err = self.proc.communicate(timeout=10)
        os.close(self.fd)
        self.stderr = err.decode()
        rec = parse_record(self.record)
        os.unlink(self.record)
        check(rec["starts"] == 1, f"the firmware restarted {rec['starts'] - 1} times; harness: {self.stderr.strip()}")
        return rec


def parse_record(path):
    rec = dict(t1=None, spi=[], tx=[], pA=[], starts=0)
    for line in open(path):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "t1":
            rec["starts"] += 1  # more than one: the firmware restarted (a fault, or the watchdog)
            if rec["t1"] is None:
                rec["t1"] = int(f[1])
        elif f[0] == "spi":
            if len(f) == 4:  # (a chip select low with no byte: the pin let go at a restart)
                rec["spi"].append((int(f[1]), bytes.fromhex(f[2]), bytes.fromhex(f[3])))
        elif f[0] == "tx":
            raw = cobs_decode(bytes.fromhex(f[2])[:-1])
            rec["tx"].append((int(f[1]), raw[1], raw[4:-2]))
        elif f[0] == "pA":
            rec["pA"].append((int(f[1]), int(f[2])))
    return rec


def sense(rate, axes, batch):
    return rate.to_bytes(2, "little") + bytes([axes, batch])


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def busy_share(stderr):
    return float(stderr.split("MCU busy ")[1].split(" %")[0])


def sample_checks(rec, sensor, axes, expect_lost=False):
    """SAMPLES against the emulator's record: ticks, spacing, values. Returns read - nominal, ticks."""
    interval, batch = le(sensor, 4, 4), sensor[3]
    k = bin(axes).count("1")
    first = 0 if axes & 1 else 1 if axes & 2 else 2
    last = 2 if axes & 4 else 1 if axes & 2 else 0
    reads = [(c - rec["t1"], miso[1:]) for c, mosi, miso in rec["spi"] if mosi[0] == 0xC0 | (0x32 + 2 * first)]
    batches = [p for _, t, p in rec["tx"] if t == MSG["SAMPLES"]]
    check(batches, "no SAMPLES")
    dev, r, prev = [], 0, None
    for n, p in enumerate(batches):
        seq, count, lost, first_tick = le(p, 0, 2), p[2], p[3], le(p, 4, 8)
        check(seq == n, f"SAMPLES seq {seq}, expected {n}")
        check(count == batch and len(p) == 12 + 2 * k * count, f"SAMPLES count {count} / size {len(p)}")
        if not expect_lost:
            check(lost == 0, f"batch {seq}: lost {lost}")
        if prev is not None:
            check(first_tick - prev == (batch + lost) * interval,
                  f"batch {seq}: first_tick {first_tick} is {first_tick - prev} after the last, not {(batch + lost) * interval}")
        prev = first_tick
        for j in range(count):
            nominal = first_tick + j * interval
            while r < len(reads) and reads[r][0] < nominal - interval // 2:
                r += 1  # a read the firmware dropped (late), or one before this batch
            check(r < len(reads), f"batch {seq} sample {j}: no read in the record")
            tick, miso = reads[r]
            dev.append(tick - nominal)
            served = b"".join(miso[2 * (a - first):2 * (a - first) + 2] for a in range(first, last + 1) if axes >> a & 1)
            got = p[12 + 2 * k * j:12 + 2 * k * (j + 1)]
            check(got == served, f"batch {seq} sample {j}: sent {got.hex()}, the part served {served.hex()}")
            r += 1
    for d in dev:
        check(abs(d) <= interval // 8, f"a read {d} ticks from its nominal tick (bound +-{interval // 8})")
    return dev, len(batches)


def keep_alive(b, seconds, every=0.1):
    out, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        b.send(MSG["HEARTBEAT"])
        out += b.messages(every)
    return out


def test_stream(build, rate=3200, axes=1, batch=12, accel="sine", seconds=1.0):
    b = Board(build, accel)
    b.send(MSG["HELLO"])
    t, info = b.wait_for(MSG["INFO"])
    check(info[6] & CAP_SENSOR, f"INFO capabilities {info[6]:#x} lack bit 4")
    b.send(MSG["SENSE"], sense(rate, axes, batch))
    t, sensor = b.wait_for(MSG["SENSOR"])
    check(t == MSG["SENSOR"], f"SENSE refused: {sensor.hex()}")
    interval = le(sensor, 4, 4)
    check(le(sensor, 0, 2) == rate and sensor[2] == axes and sensor[3] == batch, f"SENSOR {sensor.hex()}")
    check(interval == (F_CPU + rate // 2) // rate, f"interval {interval}")
    check((le(sensor, 8, 2), le(sensor, 10, 2), sensor[12], sensor[13], le(sensor, 14, 2)) == (3200, 3906, 16, 1, 3200),
          f"SENSOR sensor fields {sensor.hex()}")
    keep_alive(b, seconds)
    b.send(MSG["SENSE"], sense(0, 0, 0))
    t, off = b.wait_for(MSG["SENSOR"])
    check(off == bytes([0, 0, 0, 0, 0, 0, 0, 0]) + sensor[8:], f"SENSOR after stop {off.hex()}")
    rec = b.close()
    probe = rec["spi"][0]
    check(probe[1] == bytes([0x80, 0]) and probe[2][1] == 0xE5, f"first transfer {probe[1].hex()} {probe[2].hex()}: not a DEVID read")
    dev, n = sample_checks(rec, sensor, axes)
    print(f"  {rate}/s axes {axes} batch {batch}: {n} batches, {len(dev)} samples; read - nominal tick: "
          f"min {min(dev)}, mean {sum(dev) / len(dev):.1f}, max {max(dev)} ticks (bound {interval // 8}); "
          f"MCU busy {busy_share(b.stderr):.1f} %")


def test_refusals(build):
    b = Board(build, "sine")
    for payload, code in ((sense(3201, 1, 1), NAK_BAD_CONFIG), (sense(100, 0, 1), NAK_BAD_CONFIG),
                          (sense(100, 8, 1), NAK_BAD_CONFIG), (sense(100, 1, 0), NAK_BAD_CONFIG),
                          (sense(100, 1, 13), NAK_BAD_CONFIG), (sense(100, 7, 5), NAK_BAD_CONFIG),
                          (sense(100, 1, 1) + b"\0", NAK_BAD_MESSAGE)):
        b.send(MSG["SENSE"], payload)
        t, p = b.wait_for(MSG["SENSOR"])
        check(t == MSG["NAK"] and p[0] == code and p[2] == MSG["SENSE"], f"SENSE {payload.hex()}: got {t:#x} {p.hex()}")
    b.send(MSG["SENSE"], sense(100, 7, 4))
    t, p = b.wait_for(MSG["SENSOR"])
    check(t == MSG["SENSOR"], f"SENSE 100/s 3 axes batch 4 refused: {p.hex()}")
    b.close()
    print("  refusals: rate over 3200, axes 0 and 8, batch 0, over this board's 24 bytes, wrong size")


def test_no_part(build):
    b = Board(build, "none")
    b.send(MSG["HELLO"])
    t, info = b.wait_for(MSG["INFO"])
    check(not info[6] & CAP_SENSOR, "bit 4 set without a part")
    b.send(MSG["SENSE"], sense(100, 1, 1))
    t, p = b.wait_for(MSG["SENSOR"])
    check(t == MSG["NAK"] and p[0] == NAK_UNKNOWN_TYPE, f"SENSE without a part: {t:#x} {p.hex()}")
    rec = b.close()
    check(rec["spi"] and rec["spi"][0][2][1] == 0, "no DEVID read at boot")
    print("  no part: DEVID reads 00, bit 4 clear, SENSE is NAK unknown_type")


def test_silence(build):
    b = Board(build, "sine")
    b.send(MSG["SENSE"], sense(1000, 1, 10))
    b.wait_for(MSG["SENSOR"])
    sent = time.monotonic()
    b.messages(1.6)
    rec = b.close()
    ticks = [le(p, 4, 8) for _, t, p in rec["tx"] if t == MSG["SAMPLES"]]
    sense_tick = next(c for c, t, p in rec["tx"] if t == MSG["SENSOR"]) - rec["t1"]
    span = (ticks[-1] + 10 * 16000 - sense_tick) / F_CPU
    check(0.95 <= span <= 1.05, f"sampling ran {span:.3f} s after the last host frame, not 1 s")
    print(f"  silence: the last batch ends {span * 1000:.0f} ms after SENSE (1000 ms rule); {time.monotonic() - sent:.1f} s waited")


def test_playing(build, rate=3200, axes=1, batch=12, seconds=2.0):
    """1000 frames/s (u8, a ramp) with sampling: PLAYED reports no late frame, STATUS no underrun."""
    b = Board(build, "motor")
    b.send(MSG["CONFIGURE"], (1000).to_bytes(2, "little") + bytes([1]) + (500).to_bytes(2, "little") +
           bytes([0, 0, 0]) + (100).to_bytes(2, "little"))
    b.wait_for(MSG["STATUS"])
    if rate:
        b.send(MSG["SENSE"], sense(rate, axes, batch))
        t, sensor = b.wait_for(MSG["SENSOR"])
        check(t == MSG["SENSOR"], "SENSE refused")
    b.send(MSG["CLOCK_REQ"], (7).to_bytes(4, "little"))
    _, clk = b.wait_for(MSG["CLOCK"])
    start_tick = le(clk, 4, 8) + F_CPU // 10
    b.send(MSG["START"], (0).to_bytes(4, "little") + start_tick.to_bytes(8, "little") + (16000 << 32).to_bytes(8, "little"))
    frames = int(seconds * 1000)
    sent, t0 = 0, time.monotonic()
    got = []
    while sent < frames:
        ahead = int((time.monotonic() - t0) * 1000) + 60  # frames due from t0 + 100 ms: 160-210 buffered of 256
        while sent < min(ahead, frames):
            n = min(50, frames - sent)
            vals = bytes(((sent + i) // 4) % 256 for i in range(n))
            b.send(MSG["FRAMES"], sent.to_bytes(4, "little") + bytes([1, n]) + vals)
            sent += n
        got += b.messages(0.05)
    got += b.messages(0.5)
    b.send(MSG["STOP"], (0xFFFFFFFF).to_bytes(4, "little"))
    b.send(MSG["HEARTBEAT"])
    got += b.messages(0.2)
    rec = b.close()
    played = [p for t, p in got if t == MSG["PLAYED"]]
    check(sum(le(p, 4, 2) for p in played) >= frames, f"PLAYED counts {sum(le(p, 4, 2) for p in played)}")
    # The stream's own frames (the reports after them cover the underruns until STOP).
    stream = [p for p in played if le(p, 0, 4) + le(p, 4, 2) <= frames]
    late = sum(le(p, 6, 2) for p in stream)
    max_late = max(le(p, 8, 4) for p in stream)
    check(late == 0, f"{late} of the stream's frames late (at most {max_late} ticks)")
    edges = [c - rec["t1"] for c, v in rec["pA"]]
    line = (f"  playing 1000 frames/s: {sum(le(p, 4, 2) for p in stream)} frames in PLAYED, {late} late, "
            f"{len(edges)} pin edges")
    if rate:
        dev, n = sample_checks(rec, sensor, axes, expect_lost=True)
        lost = sum(p[3] for _, t, p in rec["tx"] if t == MSG["SAMPLES"])
        line += (f"; {rate}/s axes {axes} batch {batch}: {len(dev)} samples sent, {lost} lost, read - nominal "
                 f"{min(dev)} ... {max(dev)} ticks")
    print(line + f"; MCU busy {busy_share(b.stderr):.1f} %")


TESTS = dict(stream=lambda d: test_stream(d, batch=12), stream3=lambda d: test_stream(d, rate=1600, axes=7, batch=4),
             stream_slow=lambda d: test_stream(d, rate=1600, axes=4, batch=12),
             refusals=test_refusals, no_part=test_no_part, silence=test_silence,
             playing=lambda d: test_playing(d, rate=1600, batch=12), playing3=lambda d: test_playing(d, rate=800, axes=7, batch=4),
             playing_base=lambda d: test_playing(d, rate=0))

if __name__ == "__main__":
    build = sys.argv[1]
    only = sys.argv[sys.argv.index("--only") + 1].split(",") if "--only" in sys.argv else list(TESTS)
    for name in only:
        print(f"{name}:")
        TESTS[name](build)
    print("sense simavr test: all passed")
