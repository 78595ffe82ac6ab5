// A calibration run against a simulated motor and a simulated person, in no time: the procedure's
// stimuli are played on the motor model and judged by the person. Also the hidden truth each
// measurement should find, so its accuracy can be measured.
// SPDX-License-Identifier: Apache-2.0

import Breath

/// A calibration run against a simulated motor (an ``ERMModel``) and a ``SimulatedPerson``, in no time: the
/// procedure's stimuli are played on the motor model and judged by the person. Also knows the hidden truth
/// each measurement should find (``truth(_:)``), so the calibration's accuracy can be measured.
///
///     var rig = SimulatedRig.random(seed: 1)
///     let procedure = rig.run()
///     for (task, result) in procedure.results { print(task, result.estimate, rig.truth(task)) }
public struct SimulatedRig: Sendable {
    public var motor: ERMModel
    public var person: SimulatedPerson

    /// A rig of this motor model and this person.
    public init(motor: ERMModel, person: SimulatedPerson) {
        self.motor = motor
        self.person = person
    }

    /// A motor and a person drawn at random (the seed picks both, and the answers).
    public static func random(seed: UInt64) -> SimulatedRig {
        var r = seededRandom(seed ^ 0x4D4F_544F_52)  // "MOTOR"
        let start = r.uniform(0.08...0.25)
        let tau = r.uniform(0.05...0.12)
        let motor = ERMModel(riseTau: tau, fallTau: tau, startThreshold: start, stopThreshold: start * r.uniform(0.25...0.5))
        return SimulatedRig(motor: motor, person: .random(seed: seed))
    }

    /// What each measurement should find: the level where the answer turns (the 50 % point), given the
    /// motor and the person together (a motor below its stop threshold is not felt at all).
    public func truth(_ task: CalibrationTask) -> Double {
        switch task {
        case .motorStart: max(motor.startThreshold, person.fingertipThreshold)
        case .motorStop: max(motor.stopThreshold, person.fingertipThreshold)
        // The spin-up task's end result: the motor's time constant (seconds, not a level).
        case .motorLag: motor.riseTau
        case .feltThreshold: max(motor.stopThreshold, person.spotThreshold)
        case .comfortMax: person.comfortMax
        }
    }

    /// Runs the whole procedure; the person answers each stimulus as played on the motor.
    public mutating func run(lra: Bool = false) -> CalibrationProcedure {
        var procedure = CalibrationProcedure(lra: lra)
        while let task = procedure.task, let stimulus = procedure.stimulus {
            procedure.answer(yes: respond(task, stimulus))
        }
        return procedure
    }

    /// The person's answer to one trial.
    public mutating func respond(_ task: CalibrationTask, _ stimulus: Stimulus) -> Bool {
        let a = stimulus.judgedAmplitude(on: .erm(motor))
        return person.answer(amplitude: a, touch: task.touch, comfort: task == .comfortMax)
    }
}

extension SimulatedRig {
    /// A typical person for demonstrations and the fidelity table (seeded answers).
    public static func typicalPerson(seed: UInt64) -> SimulatedPerson {
        SimulatedPerson(fingertipThreshold: 0.02, spotThreshold: 0.08, comfortMax: 0.75, relativeNoise: 0.1,
                        lapseRate: 0.02, falseAlarmRate: 0.02, seed: seed)
    }

    /// Calibrates and returns the profile (the lag from the spin-up task, as on a real board).
    public mutating func profile(board: String, boardName: String, spot: String, created: String = "") -> CalibrationProfile {
        let procedure = run()
        return CalibrationProfile(procedure: procedure, board: board, boardName: boardName, spot: spot, lra: false,
                                  created: created)
    }
}
