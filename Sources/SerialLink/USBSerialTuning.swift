// FTDI adapters hold received bytes for their latency timer (16 ms by default): read it, and set 1 ms.
// SPDX-License-Identifier: Apache-2.0

import Glibc

/// The latency timer of USB serial adapters: FTDI adapters hold received bytes for it (16 ms by default),
/// which delays every reply from the board. Reads it from sysfs, says how to fix it, and sets it to 1 ms
/// when permitted; also a hint for ttyACM boards that ModemManager probes.
///
///     if let advice = USBSerialTuning.advice(forPort: "/dev/ttyUSB0") {
///         print(advice)  // "/dev/ttyUSB0 holds received bytes up to 16 ms (FTDI latency timer): ..."
///     }
///     _ = USBSerialTuning.setLowLatency(forPort: "/dev/ttyUSB0")
public enum USBSerialTuning {
    /// sysfs root, replaceable in tests.
    nonisolated(unsafe) public static var sysfsRoot = "/sys"

    /// The latency-timer file of a ttyUSB device (FTDI and a few others have one).
    public static func latencyTimerPath(forPort path: String) -> String? {
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX))
        let real = realpath(path, &resolved) != nil ? String(decoding: resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : path
        guard let name = real.split(separator: "/").last, name.hasPrefix("ttyUSB") else { return nil }
        return "\(sysfsRoot)/bus/usb-serial/devices/\(name)/latency_timer"
    }

    /// The adapter's latency timer in ms, or nil when it has none.
    public static func latencyTimerMs(forPort path: String) -> Int? {
        guard let file = latencyTimerPath(forPort: path), let f = fopen(file, "r") else { return nil }
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 32)
        guard fgets(&line, 32, f) != nil else { return nil }
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Int(text.filter(\.isNumber))
    }

    /// One line for the user when the timer adds latency, with the exact fix; nil when all is well.
    public static func advice(forPort path: String) -> String? {
        guard let ms = latencyTimerMs(forPort: path), ms > 1, let file = latencyTimerPath(forPort: path) else { return nil }
        return "\(path) holds received bytes up to \(ms) ms (FTDI latency timer): use --low-latency, or run: echo 1 | sudo tee \(file)"
    }

    /// Sets the timer to 1 ms; returns false when not permitted (or there is none).
    public static func setLowLatency(forPort path: String) -> Bool {
        guard let file = latencyTimerPath(forPort: path), let f = fopen(file, "w") else { return false }
        defer { fclose(f) }
        return fputs("1\n", f) >= 0
    }

    /// The adapter behind `path`, as sysfs describes it: an FTDI (USB vendor 0403) with its latency timer
    /// (16 ms when unreadable, the chip's default), a CH340/CH341 (1a86:7523, 1a86:5523), a CP210x
    /// (10c4:ea60, ea70, ea71), a native USB CDC ACM port (ttyACM); nil for anything else (a pty, an
    /// unknown chip): the clock estimate then counts both directions alike.
    public static func profile(forPort path: String, baud: Int) -> LinkProfile? {
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX))
        let real = realpath(path, &resolved) != nil ? String(decoding: resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : path
        guard let name = real.split(separator: "/").last.map(String.init) else { return nil }
        if name.hasPrefix("ttyACM") { return LinkProfile(adapter: .cdc, baud: baud) }
        guard name.hasPrefix("ttyUSB"), let (vendor, product) = usbIDs(ttyName: name) else { return nil }
        switch (vendor, product) {
        case ("0403", _): return LinkProfile(adapter: .ftdi, holdMs: latencyTimerMs(forPort: path) ?? 16, baud: baud)
        case ("1a86", "7523"), ("1a86", "5523"): return LinkProfile(adapter: .ch340, baud: baud)
        case ("10c4", "ea60"), ("10c4", "ea70"), ("10c4", "ea71"): return LinkProfile(adapter: .cp2102, baud: baud)
        default: return nil
        }
    }

    /// The USB vendor and product id (lowercase hex) of the device a tty belongs to: the first directory
    /// with an idVendor file, walking up from /sys/class/tty/NAME/device (at most 4 levels).
    static func usbIDs(ttyName: String) -> (vendor: String, product: String)? {
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX))
        guard realpath("\(sysfsRoot)/class/tty/\(ttyName)/device", &resolved) != nil else { return nil }
        var dir = String(decoding: resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for _ in 0..<5 {
            if let vendor = firstLine("\(dir)/idVendor"), let product = firstLine("\(dir)/idProduct") {
                return (vendor.lowercased(), product.lowercased())
            }
            guard let slash = dir.lastIndex(of: "/"), slash != dir.startIndex else { return nil }
            dir = String(dir[..<slash])
        }
        return nil
    }

    private static func firstLine(_ file: String) -> String? {
        guard let f = fopen(file, "r") else { return nil }
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 64)
        guard fgets(&line, 64, f) != nil else { return nil }
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.filter(\.isHexDigit)
    }

    /// A hint for boards on ttyACM that stay silent: ModemManager probes such ports for ~10 s.
    public static func modemManagerHint(forPort path: String) -> String? {
        guard path.contains("ttyACM") else { return nil }
        return "if ModemManager is running it may be probing \(path) (~10 s): stop it (sudo systemctl stop ModemManager) or mark the board with ID_MM_DEVICE_IGNORE=1 in a udev rule"
    }
}
