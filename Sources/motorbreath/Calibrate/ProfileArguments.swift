// `--profile NAME|none` and `--spot` for play, render and palette: which calibration profile shapes the
// frames and maps intensity onto the felt range, read from the config directory.
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Breath
import Calibration
import Playback

struct ProfileArguments: ParsableArguments {
    @Option(help: "Calibration profile: a saved profile's name (see motorbreath calibrate), or none. With a board, the default is the board's profile for --spot when one was saved.",
            transform: ProfileChoice.value)
    var profile: ProfileChoice?

    @Option(help: "Body spot whose profile a board uses by default (default: wrist).", transform: Spot.value)
    var spot: Spot = .wrist

    /// The profile asked for by name (nil: none, or not named: see `forBoard`). A missing name is an error.
    func named() throws -> CalibrationProfile? {
        guard case .named(let name) = profile else { return nil }
        do { return try ConfigStore().named(name) } catch { throw fail("\(error)") }
    }

    /// `forBoard` as the playback layer asks it, for every board a session prepares.
    var lookup: ProfileLookup {
        let arguments = self
        return { id, name in try arguments.forBoard(uniqueID: id, boardName: name) }
    }

    /// The profile for a board with `uniqueID`: the named one, else the board's for `spot` if saved. An
    /// Arduino board (`boardName` motorbreath-avr-...) whose profile was saved under the id its firmware
    /// reported before (LegacyBoardID) gets that one, with a note.
    func forBoard(uniqueID: UInt64, boardName: String = "") throws -> CalibrationProfile? {
        if profile == ProfileChoice.none { return nil }
        if profile != nil { return try named() }
        do {
            let (found, note) = try ConfigStore().profile(forBoard: uniqueID, boardName: boardName, spot: spot.name)
            if let note { Stderr.write("motorbreath: note: \(note)\n") }
            return found
        } catch {
            // A damaged profile must not stop a breath: play without it, and say so.
            Stderr.write("motorbreath: note: \(error); playing without a profile\n")
            return nil
        }
    }
}
