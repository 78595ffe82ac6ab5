// The machine as doctor reads it: a root folder (/ or a scratch copy in tests) and who is asking.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc

/// What `Doctor` looks at: the files under `root` (`/dev`, `/proc`, `/sys`, `/etc`, `/usr/lib/udev`) and
/// the user asking (their name, ids and the groups this login has). Tests build one over a scratch folder
/// with the conditions faked; `current` is this process on this machine.
public struct Machine: Sendable {
    /// The folder standing for `/`.
    public var root: String
    public var userName: String
    public var uid: UInt32
    /// The groups this login holds (getgroups): a group joined since login is not among them yet.
    public var groups: Set<UInt32>
    /// This process (its own open ports are not "held by another program").
    public var pid: Int32

    public init(root: String, userName: String, uid: UInt32, groups: Set<UInt32>, pid: Int32) {
        self.root = root
        self.userName = userName
        self.uid = uid
        self.groups = groups
        self.pid = pid
    }

    /// This process on this machine.
    public static var current: Machine {
        var list = [gid_t](repeating: 0, count: Int(getgroups(0, nil)))
        let n = getgroups(Int32(list.count), &list)
        var groups = Set(list.prefix(Int(max(n, 0))).map { UInt32($0) })
        groups.insert(UInt32(getgid()))
        let name = getpwuid(getuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? "\(getuid())"
        return Machine(root: "/", userName: name, uid: UInt32(getuid()), groups: groups, pid: getpid())
    }

    /// `path` (absolute, as on the machine) under `root`.
    func at(_ path: String) -> String { root == "/" ? path : root + path }

    func read(_ path: String) -> String? { try? String(contentsOfFile: at(path), encoding: .utf8) }

    func list(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: at(folder))) ?? []).sorted()
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: at(path)) }

    /// Group names by id, and members by group name, from `/etc/group`.
    var groupFile: [(name: String, gid: UInt32, members: [String])] {
        (read("/etc/group") ?? "").split(separator: "\n").compactMap { line in
            let f = line.split(separator: ":", omittingEmptySubsequences: false)
            guard f.count >= 4, let gid = UInt32(f[2]) else { return nil }
            return (String(f[0]), gid, f[3].split(separator: ",").map(String.init))
        }
    }

    /// Running processes: pid and command name (`/proc/PID/comm`).
    var processes: [(pid: Int32, name: String)] {
        list("/proc").compactMap { entry in
            guard let pid = Int32(entry) else { return nil }
            let name = read("/proc/\(entry)/comm")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return (pid, name)
        }
    }
}
