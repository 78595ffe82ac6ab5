// Reading an AHAP file's bytes: a size limit checked before anything is held, the reason when it cannot be
// read, and the encodings JSONSerialization reads (UTF-8 with or without a BOM, UTF-16 either way round)
// turned into UTF-8; UTF-32 is named, not guessed at.
// SPDX-License-Identifier: Apache-2.0

import Glibc

enum AHAPFile {
    /// The largest AHAP file read: room for 10^6 compact events
    /// (`{"Event":{"Time":0.001,"EventType":"HapticTransient"}}`, about 55 MB).
    static let maxBytes = 64 << 20

    /// The file's bytes as UTF-8, or why not. A regular file's size is checked before reading; anything
    /// else (a FIFO, /dev/stdin, /proc) is read up to the limit and refused past it.
    /// `format` names the file in errors ("AHAP", ".haptic"); the limit is the same for every format.
    static func read(_ path: String, format: String = "AHAP") throws(AHAPError) -> [UInt8] {
        func failed(_ reason: String) -> AHAPError { AHAPError(format: format, location: path, reason: reason) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failed("cannot read the file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw failed("cannot read the file: \(String(cString: strerror(errno)))") }
        if st.st_mode & S_IFMT == S_IFDIR { throw failed("it is a directory, not a file") }
        if st.st_mode & S_IFMT == S_IFREG && Int(st.st_size) > maxBytes { throw tooLarge(path, format: format, bytes: Int(st.st_size)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(st.st_mode & S_IFMT == S_IFREG ? Int(st.st_size) : 1 << 16)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw failed("cannot read the file: \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            guard bytes.count + n <= maxBytes else { throw tooLarge(path, format: format, bytes: nil) }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return try utf8(bytes, path: path, format: format)
    }

    private static func tooLarge(_ path: String, format: String, bytes: Int?) -> AHAPError {
        let size = bytes.map { " (\($0 >> 20) MB)" } ?? ""
        let article = format.first == "A" ? "an" : "a"
        return AHAPError(format: format, location: path, reason: "the file is larger than the \(maxBytes >> 20) MB \(article) \(format) file may have\(size)")
    }

    /// UTF-8 as it is (a BOM dropped); UTF-16 with a BOM, or without one as JSON's first two bytes show it
    /// (RFC 4627: ASCII text has a zero byte beside each character), converted.
    static func utf8(_ bytes: [UInt8], path: String, format: String = "AHAP") throws(AHAPError) -> [UInt8] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
        if bytes.count >= 4 && (bytes.starts(with: [0, 0, 0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE, 0, 0])
            || (bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0 && bytes[3] != 0)
            || (bytes[0] != 0 && bytes[1] == 0 && bytes[2] == 0 && bytes[3] == 0)) {
            throw AHAPError(format: format, location: path, reason: "the file is UTF-32; save it as UTF-8")
        }
        var bigEndian: Bool
        var body: ArraySlice<UInt8>
        if bytes.starts(with: [0xFE, 0xFF]) { (bigEndian, body) = (true, bytes.dropFirst(2)) }
        else if bytes.starts(with: [0xFF, 0xFE]) { (bigEndian, body) = (false, bytes.dropFirst(2)) }
        else if bytes.count >= 2 && bytes[0] == 0 && bytes[1] != 0 { (bigEndian, body) = (true, bytes[...]) }
        else if bytes.count >= 2 && bytes[0] != 0 && bytes[1] == 0 { (bigEndian, body) = (false, bytes[...]) }
        else { return bytes }
        guard body.count % 2 == 0 else { throw AHAPError(format: format, location: path, reason: "the file is UTF-16 with an odd number of bytes") }
        var units: [UInt16] = []
        units.reserveCapacity(body.count / 2)
        var k = body.startIndex
        while k < body.endIndex {
            let (a, b) = (UInt16(body[k]), UInt16(body[k + 1]))
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            k += 2
        }
        var out: [UInt8] = []
        out.reserveCapacity(units.count)
        let bad = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: true) { out.append($0) }
        if bad { throw AHAPError(format: format, location: path, reason: "the file is UTF-16 with an unpaired surrogate") }
        return out
    }
}
