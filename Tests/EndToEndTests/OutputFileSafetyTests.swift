// `render -o FILE` never replaces what the user may not write, fails in one line where it cannot replace a
// file whole, and leaves no temporary file when interrupted. Run as an unprivileged user (`nobody` through
// setpriv when the tests run as root, as CI does): permissions do not bite root.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc
import TestSupport
import Testing

private let nobody: (uid: uid_t, gid: gid_t) = (65534, 65534)

/// Runs motorbreath as `nobody` (as root) or as ourselves (as a user), to completion.
private func runUnprivileged(_ arguments: [String], timeout: Double = 30) throws -> (status: Int32, stdout: String, stderr: String) {
    if getuid() != 0 {
        let r = try runMotorbreath(arguments, timeout: timeout)
        return (r.status, r.stdout, r.stderr)
    }
    let (binary, folder) = try binaryNobodyCanRun()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    p.arguments = ["--reuid=\(nobody.uid)", "--regid=\(nobody.gid)", "--clear-groups", "--", binary] + arguments
    var env = ProcessInfo.processInfo.environment
    env["XDG_CONFIG_HOME"] = "/nonexistent-config"  // no profile or remembered strength of anyone's
    p.environment = env
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let deadline = Date().addingTimeInterval(timeout)
    while p.isRunning && Date() < deadline { usleep(10_000) }
    if p.isRunning { p.terminate() }
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
}

/// A copy of the motorbreath binary in a world-readable folder of its own (remove the folder after): the
/// build folder may sit under a home directory `nobody` cannot enter (a clone in /root, say).
private func binaryNobodyCanRun() throws -> (binary: String, folder: String) {
    let dir = "/tmp/mb-bin-\(UUID().uuidString)"
    #expect(mkdir(dir, 0o755) == 0 && chmod(dir, 0o755) == 0)
    let copy = dir + "/motorbreath"
    try FileManager.default.copyItem(atPath: motorbreathBinary.path, toPath: copy)
    #expect(chmod(copy, 0o755) == 0)
    return (copy, dir)
}

/// A scratch directory the unprivileged user owns (mode 0755), in a world-traversable place.
private func scratch(ownedByUser: Bool = true) throws -> String {
    let dir = "/tmp/mb-out-\(UUID().uuidString)"
    #expect(mkdir(dir, 0o755) == 0)
    if ownedByUser && getuid() == 0 { #expect(chown(dir, nobody.uid, nobody.gid) == 0) }
    return dir
}

private func give(_ path: String, mode: mode_t) {
    if getuid() == 0 { #expect(chown(path, nobody.uid, nobody.gid) == 0) }
    #expect(chmod(path, mode) == 0)
}

private func entries(_ dir: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct OutputFileSafetyTests {
    @Test func aReadOnlyFileIsRefusedAsCpDoes() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/ro.csv"
        try "keep me\n".write(toFile: path, atomically: false, encoding: .utf8)
        give(path, mode: 0o444)
        let r = try runUnprivileged(["render", "--pattern", "box", "-o", path])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr == "motorbreath: cannot write \(path): the file is read-only (chmod u+w \(path) to allow it, or choose another name)\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
        #expect(entries(dir) == ["ro.csv"])
    }

    @Test func aWritableFileInADirectoryTheUserCannotWriteIsOneLineAndUntouched() throws {
        let dir = try scratch(ownedByUser: false)  // root's 0755 directory (as a user: made read-only below)
        defer { chmod(dir, 0o755); try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/out.csv"
        try "keep me\n".write(toFile: path, atomically: false, encoding: .utf8)
        give(path, mode: 0o644)
        if getuid() != 0 { chmod(dir, 0o555) }
        let r = try runUnprivileged(["render", "--pattern", "box", "-o", path])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr == "motorbreath: cannot write \(path): \(dir)/ is not writable, and a file replaced whole is made there first; choose another directory\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
    }

    /// The longest name a file may have still has room for the temporary file written beside it.
    @Test func aFileWithA250CharacterNameIsReplacedWhole() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/" + String(repeating: "b", count: 246) + ".csv"
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        give(path, mode: 0o640)
        let r = try runUnprivileged(["render", "--pattern", "1-0-1", "--frame-rate", "50", "-o", path])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("time_s,intensity,duty,felt\n") && text.split(separator: "\n").count == 101)
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o640, "the file keeps its mode")
        #expect(entries(dir).count == 1)
    }

    /// SIGINT, SIGTERM or SIGHUP in the middle of a long render: the target untouched, no temporary file.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func anInterruptedRenderLeavesNothingBehind(signal: Int32, status: Int32) throws {
        let dir = try scratch(ownedByUser: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/long.csv"
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        let render = try RunningMotorbreath(["render", "--pattern", "4-7-8", "--minutes", "600", "-o", path])
        defer { if render.process.isRunning { kill(render.process.processIdentifier, SIGKILL) } }
        // Wait until the temporary file is there and growing.
        let deadline = Date().addingTimeInterval(20)
        var temporary: String?
        while Date() < deadline, render.process.isRunning {
            if let name = entries(dir).first(where: { $0 != "long.csv" }) {
                var st = stat()
                if stat(dir + "/" + name, &st) == 0 && st.st_size > 1 << 20 { temporary = name; break }
            }
            usleep(20_000)
        }
        #expect(temporary != nil, "no temporary file grew beside the target")
        kill(render.process.processIdentifier, signal)
        let r = render.finish(timeout: 10)
        #expect(r.status == status, "\(r.stderr)")
        #expect(entries(dir) == ["long.csv"], "left behind: \(entries(dir))")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
    }

    /// A destination that cannot be written (here a path under a regular file: unwritable even for root) is
    /// refused in one line before the long work: a 24-hour render or a 24-hour benchmark fails at once.
    @Test(arguments: [["render", "--pattern", "4-7-8", "--minutes", "1440"], ["benchmark", "--minutes", "1440"]])
    func anUnwritableDestinationFailsBeforeTheWork(command: [String]) throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/a-file"
        try "x\n".write(toFile: file, atomically: false, encoding: .utf8)
        let started = Date()
        let r = try runMotorbreath(command + ["-o", file + "/out"], timeout: 60)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr == "motorbreath: cannot write \(file)/out: Not a directory\n")
        #expect(r.stdout.isEmpty)
        #expect(Date().timeIntervalSince(started) < 20, "it worked before refusing")
    }

    /// When only the last step fails (the target became a directory while rendering), the whole output is
    /// kept in its temporary file beside the target and the error line says where.
    @Test func aRenderThatCannotBeRenamedAtTheEndKeepsItsOutputAndSaysWhere() throws {
        let dir = try scratch(ownedByUser: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/late.csv"
        let render = try RunningMotorbreath(["render", "--pattern", "4-7-8", "--minutes", "60", "-o", path])
        defer { if render.process.isRunning { kill(render.process.processIdentifier, SIGKILL) } }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, render.process.isRunning, entries(dir).isEmpty { usleep(10_000) }
        #expect(mkdir(path, 0o755) == 0)
        let r = render.finish(timeout: 120)
        let kept = entries(dir).filter { $0 != "late.csv" }
        #expect(r.status == 1, "\(r.stderr)")
        #expect(kept.count == 1, "\(entries(dir))")
        guard let name = kept.first else { return }
        #expect(r.stderr == "motorbreath: cannot write \(path): Is a directory; the whole output is kept in \(dir)/\(name)\n")
        let reference = try runMotorbreath(["render", "--pattern", "4-7-8", "--minutes", "60", "-o", dir + "/late.csv/whole.csv"], timeout: 120)
        #expect(reference.status == 0, "\(reference.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: dir + "/" + name, andPath: dir + "/late.csv/whole.csv"), "the kept file is not the whole output")
    }
}
