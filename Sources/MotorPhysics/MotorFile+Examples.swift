// Two of hardware/motors/ built in: the 10 mm coin ERM and the 10 mm coin LRA (a test keeps them equal).
// SPDX-License-Identifier: Apache-2.0

extension MotorFile {
    /// hardware/motors/erm-coin-10mm.json: a typical 10 mm coin ERM, 3 V, 12000 rpm, 45 ms.
    public static let coinERM10mm = MotorFile(
        name: "10 mm coin ERM, 3 V",
        erm: ERMPhysics(supplyVolts: 3.0, resistanceOhm: 30.0, inductanceH: 0.0001, torqueConstant: 0.0007162,
                        inertia: 2.488e-09, staticFriction: 8.594e-06, kineticFriction: 2.149e-06,
                        viscousFriction: 3.819e-08, eccentricMassG: 0.22, eccentricityMm: 2.8, motorMassG: 1.0),
        source: "see hardware/motors/erm-coin-10mm.json")

    /// hardware/motors/lra-coin-10mm-175.json: a typical 10 mm coin LRA, 175 Hz, Q 5.
    public static let coinLRA10mm = MotorFile(
        name: "10 mm coin LRA, 175 Hz",
        lra: LRAPhysics(resonanceHz: 175, quality: 5, movingMassG: 1.0, forceN: 0.2779, motorMassG: 1.2),
        source: "see hardware/motors/lra-coin-10mm-175.json")
}
