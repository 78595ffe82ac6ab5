// Which conformance clauses a test runs per board variant: the whole suite once per firmware (its first
// variant), and for the other variants only the clauses a variant changes (how it drives, its ceiling,
// what INFO says): framing, windows, timing, STOP and the failsafe are the same code in every variant.
// SPDX-License-Identifier: Apache-2.0

/// The clause id prefixes a variant of a firmware can change (`motorbreath conform --only`).
public let variantClausePrefixes = ["drive", "limits", "message.info"]

/// `conform` arguments: nothing (every clause) for the variant that runs the whole suite, else `--only`
/// each variant clause prefix.
public func conformScope(wholeSuite: Bool) -> [String] {
    wholeSuite ? [] : variantClausePrefixes.flatMap { ["--only", $0] }
}
