// The URLs `motorbreath serve` prints: the loopback one, or one per address of this machine when it
// listens on every network (0.0.0.0), each with the token.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc

enum ServeURLs {
    static func urls(listen: String, port: UInt16, token: String?) -> [String] {
        let query = token.map { "?token=\($0)" } ?? ""
        let hosts: [String]
        if listen == "0.0.0.0" {
            hosts = addresses().isEmpty ? ["127.0.0.1"] : addresses()
        } else if listen == "::" {
            hosts = ["[::1]"]
        } else {
            hosts = [listen.contains(":") ? "[\(listen)]" : listen]
        }
        return hosts.map { "http://\($0):\(port)/\(query)" }
    }

    /// This machine's IPv4 addresses, loopback last.
    static func addresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [String] = []
        var p: UnsafeMutablePointer<ifaddrs>? = first
        while let a = p {
            if let sa = a.pointee.ifa_addr, sa.pointee.sa_family == sa_family_t(AF_INET) {
                var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                if getnameinfo(sa, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 {
                    found.append(String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
                }
            }
            p = a.pointee.ifa_next
        }
        return found.filter { !$0.hasPrefix("127.") } + found.filter { $0.hasPrefix("127.") }
    }
}

extension ServeURLs {
    /// The URL as a QR code on standard error, for a phone's camera, when Debian's qrencode is installed
    /// (`apt-get install qrencode`; nothing is printed without it).
    static func printQRCode(_ url: String) {
        let candidates: [String] = ["/usr/bin/qrencode", "/usr/local/bin/qrencode"]
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = ["-t", "UTF8", "-m", "1", url]
        p.standardOutput = FileHandle.standardError
        p.standardError = FileHandle.nullDevice
        do {
            try p.run()
            p.waitUntilExit()
        } catch {}
    }
}

/// A flag or a value set on one thread and read on another.
final class Box<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?
    init() {}
    var value: T? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

extension Box where T == Bool {
    func set() { value = true }
    var isSet: Bool { value == true }
}
