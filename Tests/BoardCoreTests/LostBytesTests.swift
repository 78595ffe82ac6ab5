// STATUS's rx_lost_bytes (protocol.md revision 1.3): the count the hardware layer keeps reaches a host that
// named revision 1.3 or later, and never a host of an older revision or one that named none.
// SPDX-License-Identifier: Apache-2.0

import BoardCore
import MotorWire
import Testing
import TestSupport

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct LostBytesTests {
    /// A lost byte (an injected UART overrun: the hardware layer's count goes up by one) is reported as
    /// such to a revision 1.3 host, and the STATUS sizes follow each HELLO.
    @Test func lostBytesReachOnlyHostsThatAskForThem() throws {
        var b = Bench()
        b.send(.heartbeat, at: 10)
        #expect(b.lastStatus?.rxLostBytes == nil)  // no HELLO naming a revision since boot: 42 bytes
        b.send(.helloRevision(3), at: 20)
        b.send(.heartbeat, at: 30)
        #expect(b.lastStatus?.rxLostBytes == 0)
        b.core.rxLostBytes &+= 1  // what the USART interrupt does on an overrun
        b.send(.heartbeat, at: 40)
        #expect(b.lastStatus?.rxLostBytes == 1)
        b.send(.helloRevision(255), at: 50)  // a later host reads this revision's layout
        b.send(.heartbeat, at: 60)
        #expect(b.lastStatus?.rxLostBytes == 1)
        b.send(.helloRevision(2), at: 70)  // a revision 1.2 host: the 42-byte STATUS it knows
        b.send(.heartbeat, at: 80)
        #expect(b.lastStatus?.rxLostBytes == nil)
        b.send(.helloRevision(3), at: 90)
        b.send(.hello, at: 100)  // a plain HELLO clears the host's revision
        b.send(.heartbeat, at: 110)
        #expect(b.lastStatus?.rxLostBytes == nil)
    }

    /// The count wraps (modulo 2^32), like every STATUS counter.
    @Test func lostBytesWrap() {
        var b = Bench()
        b.send(.helloRevision(3), at: 10)
        b.core.rxLostBytes = UInt32.max
        b.core.rxLostBytes &+= 2
        b.send(.heartbeat, at: 20)
        #expect(b.lastStatus?.rxLostBytes == 1)
    }
}
