// Other programs that have a port open (Linux /proc): a terminal, `cat` or a modem manager reading the port
// takes the board's replies, and a tty has no lock that stops them. A pseudo-terminal's board side (the
// process holding its master) is not counted, nor a process that only inherited that side's own descriptor
// of the port (socat's `SYSTEM:cat` child: it never opened the port itself).
// SPDX-License-Identifier: Apache-2.0

import CTTYControl
import Glibc

/// A process with the port open.
public struct PortHolder: Sendable, Equatable {
    /// Its process id and program name (from /proc/PID/comm).
    public var pid: Int32
    public var program: String
}

/// Finds other programs that have a port open (Linux /proc): a terminal, `cat` or a modem manager reading
/// the port takes the board's replies, and a tty has no lock that stops them. A pseudo-terminal's board side
/// (the process holding its master) is not counted, nor a process that only inherited that side's own
/// descriptor of the port. ``PortOpener`` refuses a port someone else holds.
///
///     var st = stat()
///     if stat("/dev/ttyACM0", &st) == 0, let other = PortHolders.others(of: st).first {
///         print("\(other.program) (pid \(other.pid)) has the port open")
///     }
public enum PortHolders {
    /// Processes other than this one with the character device `device` open, read from /proc. Processes
    /// this user may not inspect (other users', unless root) are not seen.
    public static func others(of device: stat) -> [PortHolder] {
        guard isTerminal(device) else { return [] }
        let ptyIndex = PortOpener.isPseudoTerminal(device)
            ? Int(((device.st_rdev >> 8) & 0xFFF) - 136) * 256 + Int((device.st_rdev & 0xFF) | ((device.st_rdev >> 12) & 0xFFF00))
            : nil
        let me = getpid()
        var portFDs: [Int32: [Int32]] = [:]  // process -> its descriptors of the port
        var masters: Set<Int32> = []         // processes holding the pty's master
        for pid in numericEntries("/proc") where pid != me {
            let fdDir = "/proc/\(pid)/fd"
            for fd in numericEntries(fdDir) {
                var st = stat()
                guard stat("\(fdDir)/\(fd)", &st) == 0, (st.st_mode & S_IFMT) == S_IFCHR else { continue }
                if st.st_rdev == device.st_rdev { portFDs[pid, default: []].append(fd) }
                if let ptyIndex, isPtmx(st), masterIndex(pid: pid, fd: fd) == ptyIndex { masters.insert(pid) }
            }
        }
        return portFDs.keys.sorted().filter { pid in
            !masters.contains(pid) && !inheritedFromMaster(pid, fds: portFDs[pid]!, masters: masters, portFDs: portFDs)
        }.map { PortHolder(pid: $0, program: program($0)) }
    }

    /// Whether every descriptor `pid` has of the port is one its nearest ancestor holding the master also
    /// has (the same open file description, by kcmp): it inherited them and never opened the port itself.
    /// Where kcmp cannot answer, descent from the master's holder is taken as inheritance.
    static func inheritedFromMaster(_ pid: Int32, fds: [Int32], masters: Set<Int32>, portFDs: [Int32: [Int32]]) -> Bool {
        var ancestor = parent(of: pid)
        var steps = 0
        while let a = ancestor, a > 1, !masters.contains(a), steps < 64 {
            ancestor = parent(of: a)
            steps += 1
        }
        guard let holder = ancestor, masters.contains(holder) else { return false }
        let theirs = portFDs[holder] ?? []
        return fds.allSatisfy { fd in
            theirs.contains { other in
                let same = mb_same_open_file(pid, fd, holder, other)
                return same == 1 || (same < 0 && (errno == ENOSYS || errno == EPERM))
            }
        }
    }

    /// The parent process (from /proc/PID/stat, after the command name, which may hold spaces).
    static func parent(of pid: Int32) -> Int32? {
        guard let text = read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    /// A pseudo-terminal, or a character device of the tty class in sysfs (not /dev/null and the like).
    static func isTerminal(_ st: stat) -> Bool {
        guard (st.st_mode & S_IFMT) == S_IFCHR else { return false }
        if PortOpener.isPseudoTerminal(st) { return true }
        let major = (st.st_rdev >> 8) & 0xFFF, minor = (st.st_rdev & 0xFF) | ((st.st_rdev >> 12) & 0xFFF00)
        guard let real = realpath("/sys/dev/char/\(major):\(minor)/subsystem", nil) else { return false }
        defer { free(real) }
        return String(cString: real).hasSuffix("/class/tty")
    }

    /// /dev/ptmx is character device 5:2.
    static func isPtmx(_ st: stat) -> Bool { (st.st_rdev >> 8) & 0xFFF == 5 && st.st_rdev & 0xFF == 2 }

    /// The pty number a master descriptor serves ("tty-index" in /proc/PID/fdinfo/FD).
    static func masterIndex(pid: Int32, fd: Int32) -> Int? {
        guard let text = read("/proc/\(pid)/fdinfo/\(fd)") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("tty-index:") {
            return Int(line.dropFirst("tty-index:".count).trimmingCharacters(in: " \t"))
        }
        return nil
    }

    static func program(_ pid: Int32) -> String {
        (read("/proc/\(pid)/comm") ?? "?").trimmingCharacters(in: "\n")
    }

    /// The numeric names in a directory (process ids, descriptors).
    static func numericEntries(_ path: String) -> [Int32] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var out: [Int32] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if let n = Int32(name) { out.append(n) }
        }
        return out
    }

    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = Glibc.read(fd, &buffer, buffer.count)
        return n >= 0 ? String(decoding: buffer[..<n], as: UTF8.self) : nil
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String { self[...].trimmingCharacters(in: set) }
}
