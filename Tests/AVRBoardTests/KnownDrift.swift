// Where the AVR firmware's C core and BoardCore are known to differ today, found by CoreReplayTests: each
// entry is the exact first difference the test reports, so a new or changed difference fails the test, and
// so does a listed one that went away (then delete it here). To reconcile (issue 26, "One protocol truth"):
// 1. Underruns: the C core declares a missing frame's underrun only on its 16-period (0.8 ms) queue-ahead
//    cadence after the tick (play.c play_service/queue_ahead), and its zero reaches the pin two PWM periods
//    later, so underruns are output up to 14,400 ticks (0.9 ms) late and counted late in PLAYED; BoardCore
//    declares it at the tick, on time. protocol.md: a board wakes "at its tick when it is not [buffered]
//    (to declare the underrun)": the C core does not.
// 2. STOP now: the AVR's zero takes effect at the second PWM period start after the STOP (100 us at most),
//    BoardCore's at the STOP's tick.
// 3. BoardCore (and so the STM32 board) counts in its final PLAYED a frame it handed to its port within its
//    output lead that a STOP now then cancelled: PLAYED then reports a frame that never reached the pin.
// SPDX-License-Identifier: Apache-2.0

enum KnownDrift {
    static let differences: [String: [String]] = [
        // underrun declared late by the C core (below, 1); so STOP now finds one underrun fewer counted
        "frames play at their ticks, then underrun and stop": [
            "drive change #7: BoardCore level 0 at tick 288000, C firmware level 0 at tick 289600",
            "PLAYED #2 (tick 336000): BoardCore PLAYED first 8 count 4 late 0 max_late 0 duty_crc 12606 first_tick 288000 / C firmware PLAYED first 8 count 4 late 4 max_late 11200 duty_crc 12606 first_tick 289600",
            "reply #4 (tick 400000): BoardCore STATUS state configured ack 4 next_expected 0 underruns 8 late 0 duplicates 0 failsafe_trips 0 output 0 / C firmware STATUS state configured ack 4 next_expected 0 underruns 7 late 0 duplicates 0 failsafe_trips 0 output 0",
        ],
        // STOP now: the AVR's zero reaches the pin two PWM periods later (2); BoardCore's last PLAYED counts frame 9, handed to its port ahead but cancelled by the STOP and never output (3)
        "duplicates counted, a gap named, the window": [
            "drive change #8: BoardCore level 0 at tick 300000, C firmware level 0 at tick 301600",
            "PLAYED #2 (tick 300000): BoardCore PLAYED first 8 count 2 late 0 max_late 0 duty_crc 4239 first_tick 288000 / C firmware PLAYED first 8 count 1 late 0 max_late 0 duty_crc 5040 first_tick 288000",
        ],
        // underrun declared late by the C core (1)
        "failsafe after the host goes silent": [
            "drive change #1: BoardCore level 0 at tick 480000, C firmware level 0 at tick 490400",
            "PLAYED #5 (tick 528000): BoardCore PLAYED first 20 count 4 late 0 max_late 0 duty_crc 12606 first_tick 480000 / C firmware PLAYED first 20 count 4 late 4 max_late 13600 duty_crc 12606 first_tick 490400",
        ],
        // underrun declared late by the C core (1): late_count, duty_crc and the underrun count at STOP follow
        "overdrive above the ceiling runs out of budget": [
            "drive change #2: BoardCore level 0 at tick 1440000, C firmware level 0 at tick 1449600",
            "PLAYED #0 (tick 1600000): BoardCore PLAYED first 0 count 91 late 0 max_late 0 duty_crc 31500 first_tick 160000 / C firmware PLAYED first 0 count 90 late 10 max_late 13600 duty_crc 58425 first_tick 160000",
            "reply #5 (tick 1600000): BoardCore STATUS state configured ack 5 next_expected 0 underruns 11 late 0 duplicates 0 failsafe_trips 0 output 0 / C firmware STATUS state configured ack 5 next_expected 0 underruns 10 late 0 duplicates 0 failsafe_trips 0 output 0",
        ],
    ]
}
