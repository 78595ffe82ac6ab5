// The control protocol's parser on its own: a seek outside the session's cycles is an error naming the
// range (the session refuses it too, for seeks that a finish put outside); numbers must be finite.

import Breath
@testable import MotorControl
import Testing

@Suite(.timeLimit(.minutes(1))) struct ControlParseTests {
    let pattern = BreathPattern.presets[0]

    func message(_ line: String, cycles: Int?) -> String? {
        do {
            _ = try ControlCommand.parse(line, pattern: pattern, cycles: cycles)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aSeekOutsideTheSessionNamesTheRange() {
        #expect(message(#"{"command":"seek","cycle":10}"#, cycles: 3) == #"seek: "cycle" must be in 1...3 (this session's cycles), got 10"#)
        #expect(message(#"{"command":"seek","cycle":4}"#, cycles: 3) != nil)
        #expect(message(#"{"command":"seek","cycle":3,"phase":"exhale"}"#, cycles: 3) == nil)
        #expect(message(#"{"command":"seek","cycle":10}"#, cycles: nil) == nil)  // a looping session has no last cycle
        #expect(message(#"{"command":"seek","cycle":0}"#, cycles: 3) == #"seek: "cycle" must be a finite number in 1...100000"#)
    }
}
