// calibrate on the terminal: the run's progress printed on stderr, and its answers from the keys (or, with
// --simulate, from the simulated person, whose answers are printed the same way).
// SPDX-License-Identifier: Apache-2.0

import Calibration

/// The answerer of `calibrate`: prints each task, trial and result, and asks the keys or the simulated rig.
final class CalibrationConsole: TrialAnswerer {
    let spot: String
    let keys: AnswerKeys?
    private(set) var rig: SimulatedRig?

    init(spot: String, keys: AnswerKeys?, rig: SimulatedRig?) {
        self.spot = spot
        self.keys = keys
        self.rig = rig
    }

    func ready(for task: CalibrationTask) -> TrialAnswer? {
        guard let keys else { return .yes }
        say("Press space when ready (q stops).")
        return keys.next()
    }

    func answer(_ task: CalibrationTask, stimulus: Stimulus, output: [(seconds: Double, drive: Double)]?) -> TrialAnswer? {
        if rig != nil { return rig!.answer(task, stimulus: stimulus, output: output) }
        progress("\(task.question) (space = yes, n = no) ")
        keys?.drain()
        return keys?.next()
    }

    func note(_ event: CalibrationRun.Event) { progress(event.text(spot: spot)) }
}

func say(_ line: String) { Stderr.write(line + "\n") }
func progress(_ text: String) { Stderr.write(text) }
