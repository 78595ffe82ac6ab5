// The repository's root, found from this file's path (the docs the tests read live there).
// SPDX-License-Identifier: Apache-2.0

import Foundation

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A file of the repository as text.
func repoText(_ path: String) throws -> String {
    try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
}
