// Motor files: every example loads and makes its motor, the built-ins equal their files, bad files are one
// line each naming the file and what is wrong.
// SPDX-License-Identifier: Apache-2.0

import Foundation
import MotorPhysics
import TestSupport
import Testing

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct MotorFileTests {
    @Test func examplesLoad() throws {
        var erms = 0, lras: [Double] = []
        for name in MotorFiles.names {
            let file = try MotorFiles.load(name)
            #expect(!file.source.isEmpty, "\(name) cites no source")
            var motor = file.makeMotor()
            motor.advance(drive: 1, seconds: 0.3)
            #expect((motor.acceleration * motor.acceleration).sum() > 0.01, "\(name) does not shake")
            if file.kind == .erm { erms += 1 } else { lras.append(file.lra!.resonanceHz) }
        }
        #expect(erms >= 2 && lras.min()! <= 150 && lras.max()! >= 235)
        // JSON round trip.
        let coin = try MotorFiles.load("erm-coin-10mm")
        #expect(try MotorFile.decode(coin.json()) == coin)
    }

    @Test func builtInsEqualTheirFiles() throws {
        var erm = try MotorFiles.load("erm-coin-10mm"), lra = try MotorFiles.load("lra-coin-10mm-175")
        erm.source = MotorFile.coinERM10mm.source
        lra.source = MotorFile.coinLRA10mm.source
        #expect(erm == MotorFile.coinERM10mm)
        #expect(lra == MotorFile.coinLRA10mm)
    }

    @Test(arguments: [
        ("{", "motor file m.json: not JSON"),
        ("{\"version\":1}", "motor file m.json: missing name"),
        ("{\"version\":1,\"name\":\"x\",\"kind\":\"servo\",\"mounting_g\":100,\"source\":\"\",\"sensor\":{\"rangeG\":16,\"scaleMicroG\":3906.25,\"noiseG\":0.0045,\"odrHz\":3200,\"maxRateHz\":3200}}",
         "motor file m.json: bad value at kind"),
        ("{\"version\":1,\"name\":\"x\",\"kind\":\"erm\",\"mounting_g\":100,\"source\":\"\",\"sensor\":{\"rangeG\":16,\"scaleMicroG\":3906.25,\"noiseG\":0.0045,\"odrHz\":3200,\"maxRateHz\":3200}}",
         "motor file m.json: kind erm needs an \"erm\" object"),
        ("{\"version\":1,\"name\":\"x\",\"kind\":\"lra\",\"mounting_g\":-1,\"source\":\"\",\"sensor\":{\"rangeG\":16,\"scaleMicroG\":3906.25,\"noiseG\":0.0045,\"odrHz\":3200,\"maxRateHz\":3200}}",
         "motor file m.json: mounting_g must be > 0 (is -1.0)"),
        ("{\"version\":1,\"name\":\"x\",\"kind\":\"lra\",\"mounting_g\":100,\"source\":\"\",\"lra\":{\"resonance_hz\":\"175\"},\"sensor\":{\"rangeG\":16,\"scaleMicroG\":3906.25,\"noiseG\":0.0045,\"odrHz\":3200,\"maxRateHz\":3200}}",
         "motor file m.json: wrong type at lra.resonance_hz"),
    ])
    func badFilesAreOneLine(text: String, line: String) {
        do {
            _ = try MotorFile.decode(Data(text.utf8), name: "m.json")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description == line)
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func missingFileIsOneLine() {
        #expect(throws: MotorFileError("motor file nope.json: cannot be read")) { try MotorFile.load(path: "/nonexistent/nope.json") }
    }

    @Test func staticBelowKineticRefused() throws {
        var file = MotorFile.coinERM10mm
        file.erm!.staticFriction = file.erm!.kineticFriction / 2
        #expect(file.problem() == "erm.static_friction_nm must be >= kinetic_friction_nm")
    }
}
