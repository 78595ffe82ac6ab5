// `bench --vibration` against the ATmega328P firmware in simavr with the emulated ADXL345 on its SPI port
// (`--accel motor`): the firmware's own driver, sampling and SAMPLES, read by the host's bench. The oracle
// is the emulator's motor (hardware/avr/sim/adxl345.c), whose constants are written down here: its speed
// follows the duty at D9 with a 40 ms first-order lag both ways, with no start or stop threshold, and the
// mounting shakes at 2 g x speed² (512 counts of 3.9 mg) in the x-y plane.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import TestSupport
import Testing

@Suite(.tags(.emulated), .serialized, .timeLimit(.minutes(5))) struct AVRVibrationBenchTests {
    /// adxl345.c's `ACCEL_MOTOR`: the lag; g at speed s is 512 counts of 3.9 mg x s².
    static let tau = 0.040
    static func steadyG(_ level: Double) -> Double { 512 * 0.0039 * level * level }

    /// The steps from rest at or below the erm build's 60 % ceiling (0.35 and 0.6: played as asked, no
    /// overdrive) against the emulator's equations: speed 1 − e^(−t/τ), g ∝ speed², so 10 % of the steady g
    /// at −τ·ln(1 − √0.1) = 15.2 ms and 90 % at −τ·ln(1 − √0.9) = 119.3 ms.
    @Test func theEmulatedMotorIsMeasuredThroughTheFirmware() throws {
        let board = try AVRBoard(options: ["--accel", "motor"])
        defer { board.remove() }
        let r = try runMotorbreath(["bench", "--vibration", "--json", "--port", board.port, "--baud", "\(avrBaud)"], timeout: 240)
        #expect(r.status == 0, "\(r.stderr)")
        let report = try jsonObject(r.stdout)
        let vibration = try #require(report["vibration"] as? [String: Any], "\(r.stdout.prefix(400))")
        let samples = vibration["samples"] as? Int ?? 0, lost = vibration["lostSamples"] as? Int ?? -1
        #expect(samples > 40_000 && lost == 0, "a sample a millisecond for the stimulus's 52 s: \(samples), \(lost) lost")
        #expect((report["frames_played"] as? Int).map { $0 > 10_000 && $0 == report["frames_total"] as? Int } == true)
        let steps = try #require(vibration["steps"] as? [[String: Any]])
        let t10 = -Self.tau * log(1 - 0.1.squareRoot()) * 1000, t90 = -Self.tau * log(1 - 0.9.squareRoot()) * 1000
        for level in [0.35, 0.6] {
            // The level as the 8-bit PWM played it (0.35 is 89/255).
            let step = try #require(steps.first { ($0["kind"] as? String) == "start" && abs(($0["to"] as? Double ?? 0) - level) < 0.01 },
                                    "no step from rest to \(level): \(steps.map { "\($0["kind"] ?? "")->\($0["to"] ?? "")" })")
            let played = try #require(step["to"] as? Double)
            let g = try #require(step["steadyG"] as? Double), on10 = try #require(step["onset10Ms"] as? Double)
            let on90 = try #require(step["onset90Ms"] as? Double)
            print(String(format: "bench --vibration, AVR in simavr (emulated ADXL345), step to %.2f: steady %.3f g (the emulator's %.3f), "
                         + "10 %% at %.1f ms (%.1f), 90 %% at %.1f ms (%.1f)", played, g, Self.steadyG(played), on10, t10, on90, t90))
            #expect(abs(g / Self.steadyG(played) - 1) <= 0.05)
            #expect(abs(on90 / t90 - 1) <= 0.10)
            #expect(abs(on10 - t10) <= 5, "within a 4 ms frame and the 20 ms envelope's smear")
        }
        // Not judged: the fit. The bench plays levels up to 1 and this build holds the drive at its 60 %
        // ceiling after a 50 ms overdrive, so the fit takes the ceiling for full drive (printed for the note).
        if let m = report["identified"] as? [String: Any] {
            print("  fit through the 60 % ceiling (not judged): \(m["riseTau"] ?? "-") s rise, \(m["fullScaleG"] ?? "-") g full scale")
        }
    }
}
