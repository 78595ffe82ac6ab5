// One scenario (host messages with arrival ticks) run through BoardCore and through the AVR firmware's C core
// on the host (hardware/avr/test/replay.c), each giving its drive-level changes and its replies.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import Foundation
import MotorWire

/// A motor port that keeps every level change BoardCore schedules (exact ticks).
struct LevelLog: MotorPort {
    var log: [(tick: UInt64, level: Int16)] = []
    mutating func schedule(level: Int16, at tick: UInt64) { log.append((tick, level)) }
    mutating func off(at tick: UInt64) {
        while let last = log.last, last.tick > tick { log.removeLast() }
        if log.last?.level != 0 { log.append((tick, 0)) }
    }
}

/// Host messages at board ticks, then time running on to `end`.
struct ReplayScenario: CustomStringConvertible, Sendable {
    var name: String
    var messages: [(tick: UInt64, message: HostMessage)]
    var end: UInt64
    var description: String { name }
}

/// What a board did in a scenario: drive changes (tick, level) and replies (tick, comparable text).
struct ReplayOutcome {
    var outputs: [(tick: UInt64, level: Int16)] = []
    var replies: [(tick: UInt64, text: String)] = []
}

enum CoreReplay {
    /// The AVR erm build as BoardCore sees it (hardware/avr/src/board.h): 16 MHz, 256 frames, the ceiling.
    static let info = Info(firmwareMajor: 0, firmwareMinor: 1, firmwarePatch: 0, motorKind: .erm, pwmBits: 10,
                           capabilities: Info.capLimits, bufferCapacity: 256, minFrameRateHz: 50,
                           maxFrameRateHz: 1000, clockHz: 16_000_000, uniqueID: 0, lraResonanceDeciHz: 0,
                           name: BoardName("motorbreath-avr-erm"))
    static let limits = Limits(ratedMillivolts: 3000, supplyMillivolts: 5000, overdriveMs: 50, recoveryMs: 500)
    /// The PWM period: the C board's interrupt (and so its main loop here) runs at every multiple of it.
    static let period: UInt64 = 800

    /// The fields both boards must agree on (not INFO, CLOCK ticks, STATUS tick or receive counters, which
    /// belong to each board's hardware). PLAYED is compared as its own stream: BoardCore reports frames when
    /// it hands them to its port (up to its lead early), the AVR when they have reached the pin.
    static func text(_ m: BoardMessage) -> String? {
        switch m {
        case .status(let s):
            // fill, free and next_play count frames handed to the output, which each board does its own
            // output lead ahead (BoardCore's port; the AVR's 8-entry queue, 4 ms): not compared.
            return "STATUS state \(s.state) ack \(s.ackSeq) next_expected \(s.nextExpected)"
                + " underruns \(s.underruns) late \(s.lateFrames) duplicates \(s.duplicateFrames)"
                + " failsafe_trips \(s.failsafeTrips) output \(s.output)"
        case .nak(let n): return "NAK \(n.code) ref_type \(n.refType) ref_seq \(n.refSeq) detail \(n.detail)"
        case .played(let p):
            return "PLAYED first \(p.firstIndex) count \(p.count) late \(p.lateCount) max_late \(p.maxLateTicks)"
                + " duty_crc \(p.dutyCRC) first_tick \(p.firstTick)"
        case .limits(let l):
            return "LIMITS ceiling \(l.ceilingLevel) overdrive \(l.overdriveMs) recovery \(l.recoveryMs)"
                + " available \(l.availableMs) rated \(l.ratedMillivolts) supply \(l.supplyMillivolts)"
        case .sensor(let s):
            return "SENSOR rate \(s.rateHz) axes \(s.axes) batch \(s.batch) interval \(s.intervalTicks)"
        case .info, .clock, .clockHeld, .samples: return nil
        }
    }

    static func wire(_ m: HostMessage, seq: UInt8) -> [UInt8] {
        var w = FixedBytes()
        precondition(m.encode(seq: seq, into: &w))
        return (0..<w.count).map { w[$0] }
    }

    /// Level changes only (a board that schedules an unchanged level changes nothing at the pin).
    static func changes(_ log: [(tick: UInt64, level: Int16)]) -> [(tick: UInt64, level: Int16)] {
        var out: [(tick: UInt64, level: Int16)] = []
        var last: Int16 = 0
        for e in log where e.level != last {
            out.append(e)
            last = e.level
        }
        return out
    }

    /// The scenario through BoardCore, serviced on the C board's schedule (every PWM period start, and at
    /// each message's arrival).
    static func boardCore(_ s: ReplayScenario) -> ReplayOutcome {
        var core = BoardCore(port: LevelLog(), info: info, outputLeadTicks: 4 * 16_000, limits: limits)
        var out = ReplayOutcome()
        var decoder = FrameDecoder()
        func collect(_ now: UInt64) {
            var w = FixedBytes()
            while core.nextOutgoing(into: &w) {
                for i in 0..<w.count {
                    if case .packet(let p)? = decoder.push(w[i]), let m = try? BoardMessage(p), let t = text(m) {
                        out.replies.append((now, t))
                    }
                }
            }
        }
        core.boot(now: 0)
        collect(0)
        var next = period
        for (k, (tick, m)) in (s.messages.map { ($0.tick, Optional($0.message)) } + [(s.end, nil)]).enumerated() {
            while next <= tick {
                core.service(now: next)
                collect(next)
                next += period
            }
            guard let m else { break }
            for b in wire(m, seq: UInt8(truncatingIfNeeded: k)) { core.receive(b, now: tick) }
            core.service(now: tick)
            collect(tick)
        }
        out.outputs = changes(core.port.log)
        return out
    }

    /// The scenario through hardware/avr's build/host/replay (`make replay`).
    static func firmware(_ s: ReplayScenario) throws -> ReplayOutcome {
        var trace = ""
        for (k, (tick, m)) in s.messages.enumerated() {
            trace += "msg \(tick)" + wire(m, seq: UInt8(truncatingIfNeeded: k)).map { String(format: " %02X", $0) }.joined() + "\n"
        }
        trace += "end \(s.end)\n"
        let p = Process()
        p.executableURL = avrDir.appendingPathComponent("build/host/replay")
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        input.fileHandleForWriting.write(Data(trace.utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        var out = ReplayOutcome()
        var decoder = FrameDecoder()
        for line in text.split(separator: "\n") {
            let f = line.split(separator: " ")
            guard f.count >= 2, let tick = UInt64(f[1]) else { continue }
            if f[0] == "out", f.count == 3, let level = Int16(f[2]) {
                out.outputs.append((tick, level))
            } else if f[0] == "reply" {
                for h in f.dropFirst(2) {
                    if case .packet(let pk)? = decoder.push(UInt8(h, radix: 16)!), let m = try? BoardMessage(pk),
                       let t = self.text(m) {
                        out.replies.append((tick, t))
                    }
                }
            } else if f[0] == "fault" {
                out.replies.append((tick, "FAULT (the firmware restarted)"))
            }
        }
        return out
    }
}
