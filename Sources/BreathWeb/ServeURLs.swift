// The URLs `motorbreath serve` prints: the loopback one, or one per address of this machine when it
// listens on every network (0.0.0.0), each with the token.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc

/// The URLs `motorbreath serve` prints for a page: the address it listens on (IPv6 in brackets), or every
/// IPv4 address of this machine for 0.0.0.0 (loopback last), each with the token when there is one.
public enum ServeURLs {
    /// One URL per address a browser can reach the server at.
    public static func urls(listen: String, port: UInt16, token: String?) -> [String] {
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
