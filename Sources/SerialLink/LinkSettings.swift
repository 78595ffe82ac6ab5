// How a port is opened: baud rate, which driver (libserialport or termios), and the modem lines.
// SPDX-License-Identifier: Apache-2.0

/// Settings for opening a serial port. The defaults suit a motorbreath board on a USB-UART bridge.
public struct LinkSettings: Sendable, Equatable {
    /// Which code opens the port.
    public enum Driver: String, Sendable, CaseIterable {
        /// termios for pseudo-terminals (libserialport cannot open them), libserialport otherwise.
        case auto
        case libserialport
        case termios
    }

    public var baud = 115_200
    public var driver = Driver.auto
    /// DTR and RTS after opening: true raises the line, false drops it, nil leaves what the OS set
    /// (Linux raises both on open, which resets an Arduino).
    public var dtr: Bool?
    public var rts: Bool?

    /// Any rate a UART could run at; whether the adapter can is checked when the port is opened.
    public static let baudRange = 50...12_000_000

    /// Whether `actual`, the rate the driver really set, is close enough to `baud`: a driver may round a
    /// rate its divisor cannot make, and more than 2 % off garbles bytes.
    func accepts(actualBaud actual: Int) -> Bool { actual > 0 && abs(actual - baud) * 50 <= baud }

    public init(baud: Int = 115_200, driver: Driver = .auto, dtr: Bool? = nil, rts: Bool? = nil) {
        self.baud = baud
        self.driver = driver
        self.dtr = dtr
        self.rts = rts
    }
}

/// A link whose DTR and RTS lines can be set (real serial ports; ptys have no modem lines).
public protocol ModemControl: AnyObject {
    func setDTR(_ on: Bool) throws(LinkError)
    func setRTS(_ on: Bool) throws(LinkError)
}

extension ModemControl {
    /// Applies the settings' DTR and RTS choices.
    func apply(_ s: LinkSettings) throws(LinkError) {
        if let dtr = s.dtr { try setDTR(dtr) }
        if let rts = s.rts { try setRTS(rts) }
    }

    /// Drops DTR for `ms` and raises it again: resets a board whose reset is wired to DTR (Arduino style).
    public func pulseReset(ms: Int = 100) throws(LinkError) {
        try setDTR(false)
        sleepNs(UInt64(ms) * 1_000_000)
        try setDTR(true)
    }
}
