// Consistent Overhead Byte Stuffing: removes every 0x00 from a frame so 0x00 can delimit frames.
// SPDX-License-Identifier: Apache-2.0

/// COBS as published by Cheshire and Baker (1999). An encoded block is a series of groups:
/// a code byte `c` (1...255) followed by `c - 1` non-zero data bytes; a group with `c < 255`
/// stands for its data plus one 0x00, except that the 0x00 implied by the last group is dropped.
public enum COBS {
    /// Encodes `input[0..<input.count]` into `output` (cleared first). Never writes 0x00.
    /// Returns false if `output` would overflow.
    public static func encode(_ input: borrowing FixedBytes, into output: inout FixedBytes) -> Bool {
        output.removeAll()
        return input.withUnsafeBytes { bytes in  // one pointer: see FixedBytes.withUnsafeBytes
            var codeIndex = 0
            var code: UInt8 = 1
            guard output.append(0) else { return false }  // placeholder for the first code byte
            for byte in bytes {
                if byte == 0 {
                    output[codeIndex] = code
                    codeIndex = output.count
                    guard output.append(0) else { return false }
                    code = 1
                } else {
                    guard output.append(byte) else { return false }
                    code += 1
                    if code == 0xFF {
                        output[codeIndex] = code
                        codeIndex = output.count
                        guard output.append(0) else { return false }
                        code = 1
                    }
                }
            }
            output[codeIndex] = code
            return true
        }
    }

    /// Decodes `buffer` in place (the decoded form is never longer than the encoded one).
    /// Returns false for invalid input: a 0x00 inside, or a code byte running past the end.
    public static func decodeInPlace(_ buffer: inout FixedBytes) -> Bool {
        let n = buffer.count
        var read = 0
        var write = 0
        while read < n {
            let code = Int(buffer[read])
            guard code != 0, read + code <= n else { return false }
            read += 1
            for _ in 1..<code {
                let byte = buffer[read]
                guard byte != 0 else { return false }
                buffer[write] = byte
                write += 1
                read += 1
            }
            if code != 0xFF && read < n {
                buffer[write] = 0
                write += 1
            }
        }
        buffer.truncate(to: write)
        return true
    }
}
