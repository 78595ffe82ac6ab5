// The libserialport code path, exercised on a pty: the test-only shim (Tests/Shims) lets libserialport
// open one, so the loopback and a whole playback run through both drivers the same way.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

/// Builds Tests/Shims/libserialport_pty_shim.c into a shared library once per test run.
let libserialportShim: Result<String, ShimBuildError> = {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Shims/libserialport_pty_shim.c").path
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("mb-sp-shim-\(getpid()).so").path
    // The Swift toolchain always brings clang; cc is the fallback.
    for cc in ["clang", "cc"] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [cc, "-shared", "-fPIC", "-O1", "-o", output, source, "-ldl"]
        guard (try? p.run()) != nil else { continue }
        p.waitUntilExit()
        if p.terminationStatus == 0 { return .success(output) }
    }
    return .failure(ShimBuildError(source: source))
}()

struct ShimBuildError: Error, CustomStringConvertible {
    var source: String
    var description: String { "could not compile \(source) with clang or cc" }
}

@Suite(.tags(.realTime), .serialized, .timeLimit(.minutes(10))) struct LibserialportPathTests {
    func shim() throws -> String { try libserialportShim.get() }

    @Test(arguments: ["termios", "libserialport"])
    func theSameLoopbackRunsThroughBothDrivers(driver: String) throws {
        let echo = try SimBoardProcess(echo: true)
        defer { _ = echo.stop() }
        let r = try runMotorbreath(["selftest", "--loopback", "--port", echo.ptyPath, "--driver", driver,
                                    "--baud", "250000", "--seconds", "0.5", "--json"],
                                   environment: ["LD_PRELOAD": try shim()])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["driver"] as? String == driver)
        #expect((json["bytes"] as? Int ?? 0) > 10_000)
        #expect(json["mismatched_bytes"] as? Int == 0 && json["missing_bytes"] as? Int == 0)
        #expect(json["lost_pings"] as? Int == 0)
    }

    @Test func aWholeBreathPlaysThroughLibserialport() throws {
        let board = try SimBoardProcess()
        defer { _ = board.stop() }
        let arguments = ["--port", board.ptyPath, "--driver", "libserialport", "--pattern", "1-0-1", "--json", "--quiet"]
        // Without the shim the same command cannot open the pty: proof that the run below used libserialport.
        let refused = try runMotorbreath(arguments)
        #expect(refused.status == 1 && refused.stderr.contains("libserialport cannot open pseudo-terminals"))
        let r = try runMotorbreath(arguments, environment: ["LD_PRELOAD": try shim()])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let total = try #require(json["frames_total"] as? Int)
        #expect(total >= 500)
        #expect(json["frames_played"] as? Int == total)
        #expect(json["underruns"] as? Int == 0)
        #expect(json["motor_off_at_exit"] as? Bool == true)
    }

    @Test func dtrAndRtsReachTheDriver() throws {
        let echo = try SimBoardProcess(echo: true)
        defer { _ = echo.stop() }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("shim-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        func dtrLevels(_ extra: [String]) throws -> [String] {
            try? FileManager.default.removeItem(at: log)
            let r = try runMotorbreath(["selftest", "--loopback", "--port", echo.ptyPath, "--driver", "libserialport",
                                        "--seconds", "0.1"] + extra,
                                       environment: ["LD_PRELOAD": try shim(), "MOTORBREATH_SHIM_LOG": log.path])
            #expect(r.status == 0, "\(r.stderr)")
            let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
            return lines.filter { $0.hasPrefix("DTR") }.map { String($0.dropFirst(4)) }
        }
        // libserialport re-applies both lines with every setting; what matters is the last level and the order.
        #expect(try dtrLevels([]).last == "1")  // left as the OS set it: raised
        #expect(try dtrLevels(["--dtr", "off"]).last == "0")
        let reset = try dtrLevels(["--dtr", "on", "--reset-board"])
        #expect(reset.suffix(2) == ["0", "1"])  // the reset pulse: dropped, then raised
    }
}
