// --board NAME=PATH, NAME=sim or NAME=sim:LINK: one board of several played in step, by name, on a port or
// simulated (with its own link and clock, in --sim-link's words).
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser

/// --board: a named board of a layout: a serial port, or a simulated board with its own link and clock.
struct NamedBoard: ArgumentValue, Equatable {
    /// Where a named board is.
    enum Place: Equatable {
        case port(String)
        /// A simulated board, its link and clock as `--sim-link` gives them (the default link when nil).
        case simulated(SimLink?)
    }

    var name: String
    var place: Place

    static let why = "a board is NAME=PATH, NAME=sim or NAME=sim:LINK (LINK as --sim-link gives it), NAME a word of a-z, 0-9 and dashes, e.g. left=/dev/ttyUSB0 or right=sim:ftdi,drift=-50000ppm"

    static func value(_ text: String) throws(ValueProblem) -> NamedBoard {
        guard let eq = text.firstIndex(of: "=") else { throw ValueProblem(why) }
        let name = String(text[..<eq]), rest = String(text[text.index(after: eq)...])
        guard isName(name), !rest.isEmpty else { throw ValueProblem(why) }
        if rest == "sim" { return NamedBoard(name: name, place: .simulated(nil)) }
        if rest.hasPrefix("sim:") {
            do { return NamedBoard(name: name, place: .simulated(try SimLink.value(String(rest.dropFirst(4))))) } catch {
                throw ValueProblem("\(name)'s link: \(error.description)")
            }
        }
        return NamedBoard(name: name, place: .port(rest))
    }

    /// A board's name: 1...32 of a-z, 0-9 and dashes, not starting with a dash.
    static func isName(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 32 && !s.hasPrefix("-")
            && s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}
