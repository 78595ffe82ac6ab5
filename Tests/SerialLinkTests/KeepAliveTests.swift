// The keep-alive thread on a real clock: HEARTBEATs fill a stalled loop's silence every ~idle and none go
// while the loop's writes flow, its thread sleeps meanwhile (the kernel's count), and stop() ends it at once.
// SPDX-License-Identifier: Apache-2.0

import Foundation
@testable import MotorSession
import MotorWire
import SerialLink
import Testing
import TestSupport

/// A link that keeps every write with its CLOCK_MONOTONIC arrival time; reads return nothing.
final class StampedLink: ByteLink, @unchecked Sendable {
    let name = "stamped"
    private let lock = Mutex()
    private var writes: [(ns: UInt64, bytes: [UInt8])] = []

    func write(_ bytes: [UInt8], timeoutMs: Int) throws(LinkError) {
        lock.withLock { writes.append((MonotonicClock.nowNs(), bytes)) }
    }

    func read(maxBytes: Int, timeoutMs: Int) throws(LinkError) -> [UInt8] {
        sleepNs(UInt64(timeoutMs) * 1_000_000)
        return []
    }

    func close() {}

    /// Every message received, decoded by the wire's frame decoder: when it arrived, and whether it was a HEARTBEAT.
    func messages() -> [(ns: UInt64, heartbeat: Bool)] {
        var decoder = FrameDecoder()
        var out: [(ns: UInt64, heartbeat: Bool)] = []
        for w in lock.withLock({ writes }) {
            for b in w.bytes {
                if case .packet(let p)? = decoder.push(b) { out.append((w.ns, p.type == MessageType.heartbeat.rawValue)) }
            }
        }
        return out
    }
}

@Suite(.tags(.realTime), .timeLimit(.minutes(10))) struct KeepAliveTests {
    static let ms: UInt64 = 1_000_000

    /// The kernel's count of the times thread `tid` of this process went to sleep (its wake-ups).
    static func sleeps(_ tid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/task/\(tid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
        return line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? -1
    }

    /// The loop writes a CLOCK request every 10 ms for 400 ms, stalls 300 ms, writes for 100 ms more. Judged on
    /// the link's arrival times: a HEARTBEAT only ever follows `idle` of quiet (so none while the writes flow
    /// closer than that), the stall's silence is broken at least every idle + 75 ms (a generous bound for a
    /// loaded 2-core machine), and while the writes flow the keep-alive thread does not wake (the kernel's
    /// count of its sleeps, allowing two per loop gap of half the idle time or more).
    @Test func heartbeatsFillAStallAndOnlyAStall() throws {
        let idleMs = 50
        let idle = UInt64(idleMs) * Self.ms
        let link = StampedLink()
        let channel = BoardChannel(link: link)
        var token: UInt32 = 0
        func write(for ns: UInt64) throws {
            let end = MonotonicClock.nowNs() + ns
            while MonotonicClock.nowNs() < end {
                token += 1
                try channel.send(.clockRequest(token: token))
                sleepNs(10 * Self.ms)
            }
        }
        try channel.send(.clockRequest(token: token))
        let keepAlive = try #require(KeepAlive(channel: channel, idleMs: idleMs))
        defer { keepAlive.stop() }
        while keepAlive.threadID == 0 { sleepNs(Self.ms) }
        let tid = keepAlive.threadID
        try write(for: 30 * Self.ms)  // past the keep-alive's first look (5 ms in)
        let sleepsBefore = Self.sleeps(tid)
        let flowStart = MonotonicClock.nowNs()
        try write(for: 400 * Self.ms)
        let sleepsDuring = Self.sleeps(tid) - sleepsBefore
        let stallStart = MonotonicClock.nowNs()
        sleepNs(300 * Self.ms)
        let stallEnd = MonotonicClock.nowNs()
        try write(for: 100 * Self.ms)
        let stopStart = MonotonicClock.nowNs()
        keepAlive.stop()
        let stopNs = MonotonicClock.nowNs() - stopStart

        let messages = link.messages()
        var gaps: [UInt64] = []
        for i in 1..<messages.count {
            let gap = messages[i].ns - messages[i - 1].ns
            gaps.append(gap)
            if messages[i].heartbeat {
                #expect(gap >= idle, "a HEARTBEAT \(gap / Self.ms) ms after the last write (idle \(idleMs) ms)")
            }
        }
        let flowing = messages.indices.dropFirst().filter { messages[$0].ns > flowStart && messages[$0].ns <= stallStart }
        let loopGaps = flowing.filter { !messages[$0].heartbeat }.map { gaps[$0 - 1] }
        let flowHeartbeats = flowing.filter { messages[$0].heartbeat }.count
        let longLoopGaps = loopGaps.filter { $0 >= idle / 2 }.count
        let stalled = messages.indices.dropFirst().filter { messages[$0].ns > stallStart && messages[$0].ns <= stallEnd + 20 * Self.ms }
        let stallHeartbeats = stalled.filter { messages[$0].heartbeat }.count
        let stallGaps = stalled.map { gaps[$0 - 1] }  // to the loop's first write after the stall
        print("keep-alive: \(flowing.count) writes flowing (longest loop gap \((loopGaps.max() ?? 0) / 1000) µs),"
              + " \(flowHeartbeats) HEARTBEATs, \(sleepsDuring) wake-ups; stall: \(stallHeartbeats) HEARTBEATs,"
              + " gaps \(stallGaps.map { $0 / Self.ms }) ms; stop \(stopNs / 1000) µs")
        if (loopGaps.max() ?? 0) < idle { #expect(flowHeartbeats == 0) }
        #expect(sleepsDuring >= 0 && sleepsDuring <= 2 * longLoopGaps, "the keep-alive woke \(sleepsDuring) times while writes flowed")
        #expect(stallHeartbeats >= 2)
        #expect(stallGaps.allSatisfy { $0 <= idle + 75 * Self.ms }, "stall gaps \(stallGaps.map { $0 / Self.ms }) ms")
    }

    /// The thread feeding the failsafe runs ahead of ordinary work where the system allows a real-time
    /// policy (as root, as CI runs), so other processes' work cannot keep it off the CPU; read back from the
    /// kernel, and compared with what a scratch thread of this test is allowed.
    @Test func theThreadRunsAheadOfOrdinaryWorkWhereAllowed() throws {
        var allowed = false
        let probe = startThread {
            var param = sched_param()
            param.sched_priority = 1
            allowed = pthread_setschedparam(pthread_self(), Int32(SCHED_FIFO), &param) == 0
        }
        pthread_join(probe, nil)
        let channel = BoardChannel(link: StampedLink())
        try channel.send(.clockRequest(token: 1))
        let keepAlive = try #require(KeepAlive(channel: channel, idleMs: 2000))
        defer { keepAlive.stop() }
        while keepAlive.threadID == 0 { sleepNs(Self.ms) }  // published once its policy is set
        let policy = sched_getscheduler(keepAlive.threadID)
        print("keep-alive thread policy \(policy) (SCHED_FIFO is \(SCHED_FIFO)); real-time allowed here: \(allowed)")
        #expect(policy == (allowed ? Int32(SCHED_FIFO) : Int32(SCHED_OTHER)))
    }

    /// stop() wakes the sleeping thread at once (here it would otherwise sleep 2 s), and no HEARTBEAT follows.
    @Test func stopEndsTheThreadAtOnce() throws {
        let link = StampedLink()
        let channel = BoardChannel(link: link)
        try channel.send(.clockRequest(token: 1))
        let keepAlive = try #require(KeepAlive(channel: channel, idleMs: 2000))
        while keepAlive.threadID == 0 { sleepNs(Self.ms) }
        sleepNs(20 * Self.ms)
        let start = MonotonicClock.nowNs()
        keepAlive.stop()
        let took = MonotonicClock.nowNs() - start
        #expect(took < 500 * Self.ms, "stop took \(took / Self.ms) ms")
        #expect(link.messages().filter(\.heartbeat).isEmpty)
    }
}
