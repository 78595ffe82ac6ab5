// motorbreath's own version: what `motorbreath --version` prints and what the simulated board reports as
// its firmware version in INFO (the host's own board).

/// The version of this motorbreath build (semantic versioning: major.minor.patch).
///
///     print(MotorbreathVersion.text)  // "0.1.0"
public enum MotorbreathVersion {
    public static let major: UInt8 = 0
    public static let minor: UInt8 = 1
    public static let patch: UInt8 = 0
    #if !hasFeature(Embedded)
    /// "major.minor.patch" (host only: string interpolation needs a heap, which the board firmware has not).
    public static var text: String { "\(major).\(minor).\(patch)" }
    #endif
}
