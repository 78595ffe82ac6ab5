// Maps errno values from open/read/write on a tty to LinkError, the same for every link kind.
// SPDX-License-Identifier: Apache-2.0

import Glibc

extension LinkError {
    /// The LinkError for `code` from `operation` on `path`.
    public static func from(errno code: Int32, path: String, operation: String) -> LinkError {
        switch code {
        case ENOENT, ENODEV:
            return .noSuchPort(path: path, available: PortPaths.existing())
        case EACCES, EPERM:
            return .permissionDenied(path: path)
        case EBUSY, EWOULDBLOCK:
            return .busy(path: path)
        case EIO, ENXIO, EPIPE, ESHUTDOWN:
            return .disconnected(path: path)
        case ENOTTY:
            return .notASerialPort(path: path)
        default:
            return .os(path: path, operation: operation, errno: code, message: String(cString: strerror(code)))
        }
    }
}

/// Finds serial-looking device paths, for error messages and discovery.
public enum PortPaths {
    /// /dev/ttyUSB*, /dev/ttyACM* and /dev/serial/by-id/* that exist now.
    public static func existing() -> [String] {
        var found: [String] = []
        for dir in ["/dev", "/dev/serial/by-id"] {
            guard let d = opendir(dir) else { continue }
            defer { closedir(d) }
            while let entry = readdir(d) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                if dir == "/dev", !(name.hasPrefix("ttyUSB") || name.hasPrefix("ttyACM")) { continue }
                if name.hasPrefix(".") { continue }
                found.append(dir + "/" + name)
            }
        }
        return found.sorted()
    }
}
