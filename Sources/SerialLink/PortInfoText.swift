// A serial port as `motorbreath ports` lists it: path, description, USB ids, serial number, the board that
// answered, and a slow FTDI latency timer.
// SPDX-License-Identifier: Apache-2.0

extension PortInfo {
    /// One line: the path (padded to 24), description, [VID:PID], serial, "<- board" when one answered, and
    /// the FTDI latency timer when it is above 1 ms.
    public func line(board: String?, latencyTimerMs: Int?) -> String {
        var line = path + String(repeating: " ", count: max(0, 24 - path.count)) + description
        if let vid = usbVID, let pid = usbPID { line += "  [\(vid):\(pid)]" }
        if let s = serialNumber { line += "  serial \(s)" }
        if let b = board { line += "  <- \(b)" }
        if let ms = latencyTimerMs, ms > 1 { line += "  (latency timer \(ms) ms)" }
        return line
    }
}
