// Human-readable names for what a board says about itself (INFO), shared by play, info, bench and ports.
// SPDX-License-Identifier: Apache-2.0

import MotorWire

extension BoardName {
    /// The name as text.
    public var text: String {
        var bytes: [UInt8] = []
        for i in 0..<count { bytes.append(self[i]) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Info {
    /// "motorbreath-f4-erm fw 0.2.0"
    public var displayName: String { "\(name.text) fw \(firmwareVersion)" }
    public var firmwareVersion: String { "\(firmwareMajor).\(firmwareMinor).\(firmwarePatch)" }
    /// The protocol revision the board announced, "1.2"; "1.0" for a board that announces none (section 10).
    public var revisionText: String { "\(protocolVersion).\(revision ?? 0)" }
    public var motorName: String { motorKind == .lra ? "LRA" : "ERM" }
    /// Capability names, e.g. ["reverse", "lra-carrier"].
    public var capabilityNames: [String] {
        var names: [String] = []
        if capabilities & Info.capReverse != 0 { names.append("reverse") }
        if capabilities & Info.capLRACarrier != 0 { names.append("lra-carrier") }
        if capabilities & Info.capLimits != 0 { names.append("drive-ceiling") }
        if capabilities & Info.capReplace != 0 { names.append("replace") }
        if capabilities & Info.capSensor != 0 { names.append("vibration-sensor") }
        return names
    }
}
