// Haptic events as Core Haptics defines them: transient taps and continuous buzzes with parameters.
// SPDX-License-Identifier: Apache-2.0

/// A tap at one instant, or a vibration lasting `duration` seconds.
public struct HapticEvent: Sendable, Equatable {
    /// A transient tap at one instant, or a continuous vibration lasting `duration` seconds (Core Haptics'
    /// HapticTransient and HapticContinuous).
    public enum Kind: Sendable, Equatable {
        case transient
        case continuous(duration: Double)
    }

    public var kind: Kind
    /// Seconds from the pattern start.
    public var time: Double
    /// 0...1 (Core Haptics HapticIntensity).
    public var intensity: Double
    /// 0...1 (HapticSharpness): 0 round and soft, 1 crisp.
    public var sharpness: Double
    /// Continuous events: seconds over which intensity ramps up from 0 (AttackTime).
    public var attack: Double
    /// Continuous events: seconds over which intensity ramps down to 0 at the end (ReleaseTime).
    public var release: Double
    /// Transients: whether the pattern's intensity and sharpness controls act on the tap, as Core Haptics
    /// plays an AHAP tap. A `.haptic` file's emphasis is its own strength, whatever the amplitude envelope
    /// (which `HapticClipImport` carries in the intensity control) does there: false.
    public var followsControls: Bool

    /// Defaults used when a parameter is missing (AHAP loading follows the same rule).
    public static let defaultIntensity = 1.0
    public static let defaultSharpness = 0.5

    public init(kind: Kind, time: Double, intensity: Double = HapticEvent.defaultIntensity,
                sharpness: Double = HapticEvent.defaultSharpness, attack: Double = 0, release: Double = 0,
                followsControls: Bool = true) {
        self.kind = kind
        self.time = max(0, time)
        self.intensity = min(max(intensity, 0), 1)
        self.sharpness = min(max(sharpness, 0), 1)
        self.attack = max(0, attack)
        self.release = max(0, release)
        self.followsControls = followsControls
    }

    public static func transient(at time: Double, intensity: Double, sharpness: Double = 0.3) -> HapticEvent {
        HapticEvent(kind: .transient, time: time, intensity: intensity, sharpness: sharpness)
    }

    public static func continuous(at time: Double, duration: Double, intensity: Double,
                                  sharpness: Double = 0.3) -> HapticEvent {
        HapticEvent(kind: .continuous(duration: duration), time: time, intensity: intensity, sharpness: sharpness)
    }

    public var duration: Double {
        if case .continuous(let d) = kind { return d }
        return 0
    }

    public var endTime: Double { time + duration }

    public var isTransient: Bool { kind == .transient }

    /// Attack/release envelope factor 0...1 at pattern time `t` (inside the event).
    public func envelope(at t: Double) -> Double {
        let local = t - time
        var f = 1.0
        if attack > 0 && local < attack { f = min(f, max(0, local / attack)) }
        if release > 0 && duration - local < release { f = min(f, max(0, (duration - local) / release)) }
        return f
    }
}
