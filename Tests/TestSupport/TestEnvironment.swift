// The environment every motorbreath a test starts runs in: this test process's own, with a config directory
// of its own, so no profile or remembered strength in the user's ~/.config changes what a test sees.
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// An empty config directory for the programs this test process starts (made once, never written by the
/// tests that use it: a test about config files gives its own). `.ci/test` points `XDG_CONFIG_HOME` at a
/// watched directory and fails the run if anything opens a file there.
public let testConfigHome: URL = {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("motorbreath-test-config-\(getpid())")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}()

/// This process's environment with `XDG_CONFIG_HOME` set to ``testConfigHome``, then `extra` over it.
public func testEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_CONFIG_HOME"] = testConfigHome.path
    return environment.merging(extra) { $1 }
}
