// What play shows while the boards play: one board's live line (LiveView) or several boards' (SeveralView),
// fed by the playback's breath-time status.
// SPDX-License-Identifier: Apache-2.0

import MotorControl
import Playback

/// play's live line for one board or several, following a ``Playback``.
final class PlayView: @unchecked Sendable {
    private let one: LiveView?
    private let several: SeveralView?

    init(_ built: BuiltBreath, names: [String], quiet: Bool, kind: ViewKind) {
        if names.count == 1 {
            one = LiveView(plan: built.plan, pattern: built.pattern, duration: built.duration, quiet: quiet, kind: kind)
            several = nil
        } else {
            one = nil
            several = SeveralView(names: names, quiet: quiet)
        }
    }

    /// The controls' values shown beside the breath.
    var controls: ControlHub? {
        get { one?.controls ?? several?.controls }
        set {
            one?.controls = newValue
            several?.controls = newValue
        }
    }

    /// Shows every status of `playback` (set before it plays).
    func follow(_ playback: Playback) {
        playback.onStatus = { [weak self, weak playback] k, live in
            guard let self else { return }
            if let one = self.one {
                if one.live == nil { one.live = playback?.steerable(0) }
                one.show(live)
            }
            self.several?.show(k, live)
        }
        playback.onBoardEnded = { [weak self] k in self?.several?.ended(k) }
    }

    func finish() {
        one?.finish()
        several?.finish()
    }
}
