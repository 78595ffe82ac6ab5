// The option values about the motor, the board and the link: --motor, --sim-link and --control-mode,
// each parsed once by its type, with its range and its error line.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Breath
import SimBoard

/// --motor: the kind of motor frames are shaped for (and a simulated board drives), with its reference physics.
enum MotorKind: String, ChoiceValue {
    case erm, lra

    /// The reference model of this kind.
    var profile: MotorProfile { self == .erm ? .referenceERM : .referenceLRA }
}

/// --sim-link: the simulated link and board clock, e.g. latency=16ms,jitter=8ms,drift=500ppm,corrupt=0.01;
/// its error line quotes the part that is wrong. Keeps the text (the benchmark prints it).
struct SimLink: ArgumentValue, Equatable {
    var text: String
    var impairments: LinkImpairments

    /// A typical USB-serial link: latency=16ms,jitter=8ms,drift=500ppm (latency's and benchmark's default).
    static let usbSerial = try! SimLink.value("latency=16ms,jitter=8ms,drift=500ppm")

    static func value(_ text: String) throws(ValueProblem) -> SimLink {
        do { return SimLink(text: text, impairments: try LinkImpairments.parse(text)) } catch {
            throw ValueProblem(error.text == text ? error.reason : "'\(error.text)': \(error.reason)")
        }
    }
}

/// --control-mode: permissions of the control socket, octal (600, 0660, 666); the owner can always read
/// and write.
struct SocketMode: ArgumentValue, Equatable {
    var bits: Int

    static let ownerOnly = SocketMode(bits: 0o600)

    static func value(_ text: String) throws(ValueProblem) -> SocketMode {
        guard let v = Int(text, radix: 8), (0...0o777).contains(v), v & 0o600 == 0o600 else {
            throw ValueProblem("expected octal permissions that let you read and write, such as 600, 660 or 666")
        }
        return SocketMode(bits: v)
    }
}
