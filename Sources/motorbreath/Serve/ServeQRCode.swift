// The serve URL as a QR code on standard error, for a phone's camera, when Debian's qrencode is installed.
// SPDX-License-Identifier: Apache-2.0

import BreathWeb
import Foundation

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
