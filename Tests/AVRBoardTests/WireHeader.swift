// Generates hardware/avr/src/wire_gen.h, the C firmware's protocol constants, from MotorWire's tables:
// message codes, NAK codes, states, duty formats, capability bits and payload sizes have one source.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

/// The C header the AVR firmware includes for every protocol constant, made from the Swift wire tables.
enum WireHeader {
    /// One `#define`: its C name, value text and the comment line above its group (if it starts one).
    struct Constant: Equatable {
        let name: String
        let value: String
        var group: String? = nil
    }

    static let path = "hardware/avr/src/wire_gen.h"

    /// `clockRequest` -> `CLOCK_REQUEST`, `capLRACarrier` -> `CAP_LRA_CARRIER`.
    static func cName(_ swift: String) -> String {
        var out = ""
        let chars = Array(swift)
        for (i, c) in chars.enumerated() {
            let prevLower = i > 0 && (chars[i - 1].isLowercase || chars[i - 1].isNumber)
            let nextLower = i + 1 < chars.count && chars[i + 1].isLowercase
            let prevUpper = i > 0 && chars[i - 1].isUppercase
            if c.isUppercase && (prevLower || (prevUpper && nextLower)) { out += "_" }
            out += c.uppercased()
        }
        return out
    }

    static func hex(_ v: some BinaryInteger, digits: Int = 2) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, digits - s.count)) + s
    }

    /// Every constant, in header order, straight from MotorWire.
    static var constants: [Constant] {
        var c: [Constant] = []
        func add(_ name: String, _ value: String, _ group: String? = nil) {
            c.append(Constant(name: name, value: value, group: group))
        }
        add("WIRE_VERSION", "\(Wire.version)", "Frame layout (protocol.md section 2; Wire).")
        add("WIRE_REVISION_MAX", "\(Wire.revision)")
        add("WIRE_HEADER_SIZE", "\(Wire.headerSize)")
        add("WIRE_CRC_SIZE", "\(Wire.crcSize)")
        add("WIRE_MAX_PAYLOAD", "\(Wire.maxPayload)")
        add("WIRE_MAX_RAW_FRAME", "\(Wire.maxRawFrame)")
        add("WIRE_MAX_ENCODED", "\(Wire.maxEncodedFrame)")
        add("WIRE_DELIMITER", hex(Wire.delimiter))
        add("CRC16_INIT", hex(CRC16().value, digits: 4) + "u")

        for (i, t) in MessageType.allCases.enumerated() {
            add("MSG_" + cName("\(t)"), hex(t.rawValue), i == 0 ? "Message type codes (section 4; MessageType)." : nil)
        }
        for (i, n) in NakCode.allCases.enumerated() {
            add("NAK_" + cName("\(n)"), "\(n.rawValue)", i == 0 ? "NAK codes (NakCode)." : nil)
        }
        for (i, s) in BoardState.allCases.enumerated() {
            add("STATE_" + cName("\(s)"), "\(s.rawValue)", i == 0 ? "STATUS states (BoardState)." : nil)
        }
        for (i, f) in DutyFormat.allCases.enumerated() {
            add("FMT_" + cName("\(f)"), "\(f.rawValue)", i == 0 ? "Duty formats (DutyFormat)." : nil)
        }
        for f in DutyFormat.allCases {
            add("FRAMES_MAX_" + cName("\(f)"), "\(f.maxPerMessage)")
        }
        add("CONFIGURE_FLAG_ALLOW_REVERSE", hex(Configure.flagAllowReverse), "CONFIGURE flags, STOP index.")
        add("STOP_NOW", hex(HostMessage.stopNow, digits: 8) + "UL")
        for (i, k) in MotorKind.allCases.enumerated() {
            add("MOTOR_" + cName("\(k)"), "\(k.rawValue)", i == 0 ? "INFO motor kinds and capability bits (MotorKind, Info)." : nil)
        }
        add("CAP_REVERSE", hex(Info.capReverse))
        add("CAP_LRA_CARRIER", hex(Info.capLRACarrier))
        add("CAP_LIMITS", hex(Info.capLimits))
        add("CAP_REPLACE", hex(Info.capReplace))
        add("CAP_SENSOR", hex(Info.capSensor))
        add("BOARD_NAME_CAPACITY", "\(BoardName.capacity)")

        // Payload sizes: the struct's own constant where it has one, else what MotorWire encodes.
        add("SIZE_HELLO", "\(HostMessage.hello.payload().count)", "Payload sizes in bytes (what MotorWire encodes).")
        add("SIZE_HELLO_REVISION", "\(HostMessage.helloRevision(Wire.revision).payload().count)")
        add("SIZE_CONFIGURE", "\(Configure.payloadSize)")
        add("SIZE_CLOCK_REQUEST", "\(HostMessage.clockRequest(token: 0).payload().count)")
        add("SIZE_FRAMES_HEADER", "\(FramesBlock.headerSize)")
        add("SIZE_START", "\(Start.payloadSize)")
        add("SIZE_STOP", "\(HostMessage.stop(atIndex: 0).payload().count)")
        add("SIZE_HEARTBEAT", "\(HostMessage.heartbeat.payload().count)")
        add("SIZE_LIMITS_REQUEST", "\(HostMessage.limitsRequest.payload().count)")
        add("SIZE_INFO_FIXED", "\(Info.fixedSize)")
        add("SIZE_CLOCK", "\(BoardMessage.clock(token: 0, tick: 0).payload().count)")
        add("SIZE_STATUS", "\(Status.payloadSize)")
        add("SIZE_STATUS_LOST", "\(Status.payloadSizeLost)")
        add("STATUS_LOST_REVISION", "\(Status.lostBytesRevision)")
        add("SIZE_NAK", "\(Nak.payloadSize)")
        add("SIZE_PLAYED", "\(Played.payloadSize)")
        add("SIZE_LIMITS", "\(Limits.payloadSize)")
        add("SIZE_SENSE", "\(Sense.payloadSize)")
        add("SIZE_SENSOR", "\(SensorState.payloadSize)")
        add("SIZE_SAMPLES_HEADER", "\(SampleBatch.headerSize)")
        add("SAMPLES_MAX_VALUES", "\(SampleBatch.capacity)")
        return c
    }

    /// The header's whole text.
    static var text: String {
        var s = """
            // Protocol constants for the C firmware, GENERATED from the Swift wire tables (Sources/MotorWire) by
            // Tests/AVRBoardTests/WireHeader.swift: do not edit. After changing MotorWire, regenerate with
            //   MOTORBREATH_WRITE_WIRE_HEADER=1 swift test --skip-build --filter WireHeaderTests
            // (WireHeaderTests fails, naming the constant, while this file differs from what MotorWire says.)
            // SPDX-License-Identifier: Apache-2.0
            #ifndef WIRE_GEN_H
            #define WIRE_GEN_H

            """
        for k in constants {
            if let g = k.group { s += "\n// \(g)\n" }
            s += "#define \(k.name) \(k.value)\n"
        }
        s += "\n#endif\n"
        return s
    }

    /// `#define NAME VALUE` lines of a header: name -> value text, in order.
    static func defines(in header: String) -> [(name: String, value: String)] {
        header.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, parts[0] == "#define" else { return nil }
            return (String(parts[1]), String(parts[2]).trimmingCharacters(in: .whitespaces))
        }
    }
}
