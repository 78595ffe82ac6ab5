// The streaming render loop, in blocks of frames and two passes: first every frame's targets (the intended
// intensity, warm-up floor and step leads), then the shaper turns them into raw duty values. The targets
// never depend on the shaper, so this gives the same frames as shaping each frame in turn.
// SPDX-License-Identifier: Apache-2.0

extension FrameRenderer {
    /// Frames per block: the two passes' scratch space lives on the stack.
    static let block = 256

    /// Renders the next `count` frames' raw duty values into `out` (appending); returns how many.
    @discardableResult
    public mutating func render(count: Int, into out: inout [UInt16]) -> Int {
        let n = min(count, frameCount - next)
        guard n > 0 else { return 0 }
        let quantizer = Quantizer(resolution)
        let end = next + n
        withUnsafeTemporaryAllocation(of: FrameAim.self, capacity: Self.block) { aims in
            withUnsafeTemporaryAllocation(of: UInt16.self, capacity: Self.block) { raw in
                while next < end {
                    let k = min(Self.block, end - next)
                    let blockAims = UnsafeMutableBufferPointer(rebasing: aims[0..<k])
                    let blockRaw = UnsafeMutableBufferPointer(rebasing: raw[0..<k])
                    aim(blockAims)
                    shaper.shape(UnsafeBufferPointer(blockAims), into: blockRaw, quantizer)
                    out.append(contentsOf: blockRaw)
                    next += k
                }
            }
        }
        return n
    }

    /// Moves past the next `played.count` frames as if they had been rendered, the motor model following
    /// the raw values given (frames output before, from another renderer) instead of shaping its own: a
    /// renderer that takes over from another at a live change starts from the motor as it really is.
    public mutating func follow(played: ArraySlice<UInt16>) {
        let n = min(played.count, frameCount - next)
        guard n > 0 else { return }
        let quantizer = Quantizer(resolution)
        var i = played.startIndex
        withUnsafeTemporaryAllocation(of: FrameAim.self, capacity: Self.block) { aims in
            var left = n
            while left > 0 {
                let k = min(Self.block, left)
                aim(UnsafeMutableBufferPointer(rebasing: aims[0..<k]))  // the targets' cursors and last aim
                for _ in 0..<k {
                    shaper.follow(drive: quantizer.drive(ofRaw: played[i]))
                    i += 1
                }
                next += k
                left -= k
            }
        }
    }

    /// The targets of the frames from `next` on, one per element of `aims` (does not move `next`): the
    /// intended intensity, read from `TargetPiece`s; the warm-up floor while the intention is below it;
    /// inside a coming jump's lead, the jump's new level.
    mutating func aim(_ aims: UnsafeMutableBufferPointer<FrameAim>) {
        let rate = Double(frameRate)
        var now = intendedAtFrame(next)
        var piece = TargetPiece()
        for j in aims.indices {
            // Breath time of the frame's end, from whole frames (a difference of two times in seconds
            // would round: 574/250 - 75/250 is below 299/250, and a lead starting there came a frame late).
            let t = Double(next + j + 1 - warmupFrames) / rate
            if t >= 0 && !(t < piece.until) { piece = self.piece(at: t) }
            let after = t < 0 ? 0 : intended(in: piece, at: t)
            var aim = after
            if floorActive && after < warmupFloor {
                aim = warmupFloor
            } else {
                floorActive = false
                if t >= 0 && piece.inLead != 0 { aim = piece.lead }
            }
            aims[j] = FrameAim(intended: now, now: floorActive ? 0 : (lastAim ?? now), next: aim)
            now = after
            lastAim = aim
        }
    }
}

/// One frame's targets: the intended intensity at the frame's start, and what the shaper aimed for at the
/// frame's start (`now`) and aims for at its end (`next`).
struct FrameAim {
    var intended: Double
    var now: Double
    var next: Double
}
