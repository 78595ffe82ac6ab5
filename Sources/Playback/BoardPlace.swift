// Where a board is: a serial port, or a simulated board with its own link and clock. A layout names each
// board of a session (one board is a layout of one).
// SPDX-License-Identifier: Apache-2.0

import SimBoard

/// Where one board is: a serial port (a USB adapter, a pseudo-terminal, or `auto`: the one port whose
/// board answers), or a board simulated in this process behind a link with its own impairments and clock.
///
///     let places = [NamedPlace("left", .port("/dev/ttyUSB0")), NamedPlace("right", .simulated())]
public enum BoardPlace: Sendable, Equatable {
    case port(String)
    /// A simulated board (``SimWorld``): `spec` its board (motor, buffer, clock), `impairments` its link.
    case simulated(impairments: LinkImpairments = LinkImpairments(), spec: SimBoardSpec = SimBoardSpec())
    /// A simulated board on a thread of its own behind an in-memory link, on the system clock (what
    /// `conform --simulate` checks: the board as a separate party, not a world the host's reads move).
    case simulatedThread(spec: SimBoardSpec = SimBoardSpec())

    /// True for a simulated board.
    public var isSimulated: Bool {
        if case .port = self { return false }
        return true
    }

    public static func == (a: BoardPlace, b: BoardPlace) -> Bool {
        switch (a, b) {
        case (.port(let x), .port(let y)): x == y
        case (.simulated(let i, let s), .simulated(let j, let t)): i == j && s.motor == t.motor && s.clockHz == t.clockHz
        case (.simulatedThread(let s), .simulatedThread(let t)): s.motor == t.motor && s.clockHz == t.clockHz
        default: false
        }
    }
}

/// One board of a layout: its name (what reports, events and errors call it) and its place.
public struct NamedPlace: Sendable, Equatable {
    public var name: String
    public var place: BoardPlace
    /// A simulated board's seed of its own (nil: the stage's seed plus the board's index).
    public var seed: UInt64?

    public init(_ name: String, _ place: BoardPlace, seed: UInt64? = nil) {
        self.name = name
        self.place = place
        self.seed = seed
    }
}
