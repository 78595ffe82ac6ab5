// swift-tools-version:6.1
// motorbreath: breath waveforms streamed to a USB motor board on the board's own clock.
// Data flows one way: Breath (pattern -> frames) -> MotorSession -> MotorWire -> SerialLink -> board.
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

let package = Package(
    name: "motorbreath",
    products: [
        .executable(name: "motorbreath", targets: ["motorbreath"]),
        // What an app builds on (Examples/SteeredBreath uses the first three): patterns, AHAP and rendering;
        // sessions on a board; the simulated board; the wire codec; the board logic.
        .library(name: "Breath", targets: ["Breath"]),
        .library(name: "MotorSession", targets: ["MotorSession"]),
        .library(name: "SimBoard", targets: ["SimBoard"]),
        .library(name: "BoardAccess", targets: ["BoardAccess"]),
        .library(name: "SerialLink", targets: ["SerialLink"]),
        .library(name: "MotorWire", targets: ["MotorWire"]),
        .library(name: "BoardCore", targets: ["BoardCore"]),
        .library(name: "MotorControl", targets: ["MotorControl"]),
        .library(name: "Playback", targets: ["Playback"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `motorbreath serve`: HTTP and WebSocket on SwiftNIO, whose request reader holds the page's bounds
        // (docs/web.md, "Limits"); no optional traits (swift-configuration is not built). The cost: a first
        // debug build of 413 s instead of FlyingFox's 114 s (2 shared cores, 2026-11-29).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
    ],
    targets: [
        // libserialport, from the system (Debian: libserialport-dev).
        .systemLibrary(
            name: "CSerialPort",
            pkgConfig: "libserialport",
            providers: [.apt(["libserialport-dev"])]
        ),
        // POSIX pty calls hidden by Glibc's module (header only).
        .systemLibrary(name: "CPosixPty"),
        // The tty ioctls Swift cannot call: termios2 baud rates (250000 and friends), DTR and RTS.
        .target(name: "CTTYControl"),
        // The keep-alive's watchdog: timerfd and eventfd, which Glibc's module does not expose.
        .target(name: "CWatchdog"),
        // Protocol v1 codec. Embedded-Swift-clean: no Foundation, no heap per byte.
        .target(name: "MotorWire"),
        // The board's logic; the same source runs in firmware, the simulated board and tests.
        .target(name: "BoardCore", dependencies: ["MotorWire"]),
        // Patterns, curves and motor models rendered to duty frames.
        .target(name: "Breath"),
        // The physical motor (not the shaping model), its simulated accelerometer, vibration analysis and
        // motor identification (issue 41).
        .target(name: "MotorPhysics", dependencies: ["Breath"]),
        // Calibration: staircases, the procedure as a pure state machine, a simulated person, profiles, and the
        // trial loop on a board (TrialPlayer, CalibrationRun).
        .target(name: "Calibration", dependencies: ["Breath", "MotorSession", "SimBoard", "Preferences", "MotorPhysics"]),
        // What a person set once (the remembered strength) and the config directory it shares with the profiles.
        .target(name: "Preferences"),
        // The host's clocks, locks and threads: thin wrappers over CLOCK_MONOTONIC and pthreads.
        .target(name: "HostPlatform"),
        // Byte links: libserialport ports, pty fallback, in-memory link with faults (re-exports HostPlatform).
        .target(name: "SerialLink", dependencies: ["CSerialPort", "CPosixPty", "CTTYControl", "HostPlatform"]),
        // BoardCore on the host: its own drifting clock, a motor model, a PWM log.
        .target(name: "SimBoard", dependencies: ["BoardCore", "MotorWire", "Breath", "SerialLink", "MotorPhysics"]),
        // Host side of the protocol: prepare, clock sync, streaming, stop.
        .target(name: "MotorSession", dependencies: ["MotorWire", "SerialLink", "Breath", "CWatchdog", "MotorPhysics"]),
        // Picking the board (simulated world, simulated board or port), reopening it, its clock; and judging a
        // simulated board's frames on its true clock.
        .target(name: "BoardAccess", dependencies: ["MotorSession", "SimBoard", "SerialLink"]),
        // The control protocol (docs/control.md): commands, events, the hub, stdin and socket transports.
        .target(name: "MotorControl", dependencies: ["MotorSession", "Breath", "HostPlatform"]),
        // The one playback layer every command, the page and the benches play through: the boards opened
        // (Stage), their shaping and profiles, breath-time status, true-clock judging, the control hub wired,
        // one result and end line, and the signal path (StopSignal).
        .target(name: "Playback", dependencies: ["MotorSession", "BoardAccess", "MotorControl", "Calibration", "SimBoard", "Breath", "HostPlatform", "SerialLink", "MotorWire"]),
        // `motorbreath serve`: the page (static files, package resources), its WebSocket speaking the control
        // protocol through the same ControlHub, the Host/Origin/token guard.
        .target(
            name: "BreathWeb",
            dependencies: [
                "MotorControl", "MotorSession", "Breath", "Playback",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Page")]
        ),
        // Output files that never clobber what is not theirs: a regular file replaced whole (a temporary file
        // renamed over it), a device, FIFO or symlink written through, a directory or read-only file refused.
        .target(name: "SafeOutput"),
        // `motorbreath doctor`: what stands between this machine and a board (issue 42).
        .target(name: "Doctor", dependencies: ["SerialLink"]),
        // The live line's text fitted to a width: display columns, the status and breath views' layouts.
        .target(name: "LiveText"),
        // The conformance suite: every clause of protocol.md checked against a board, through its port only.
        .target(name: "BoardConformance", dependencies: ["MotorSession", "MotorWire", "SerialLink"]),
        // Sessions against the simulated world, measured on the true board clock; the naive streamer.
        .target(name: "TimingBench", dependencies: ["Playback", "BoardAccess", "SimBoard", "MotorSession", "Breath", "MotorWire", "HostPlatform"]),
        .executableTarget(
            name: "motorbreath",
            dependencies: [
                "Playback", "MotorSession", "MotorControl", "BreathWeb", "BoardAccess", "SimBoard", "SerialLink", "Breath", "TimingBench", "BoardConformance", "Calibration", "Preferences", "SafeOutput", "LiveText", "Doctor", "MotorPhysics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Running the motorbreath binary from tests (end-to-end and emulated-board tests).
        .target(name: "TestSupport", dependencies: ["Breath"], path: "Tests/TestSupport"),
        .testTarget(name: "MotorWireTests", dependencies: ["MotorWire", "TestSupport"]),
        .testTarget(name: "BoardCoreTests", dependencies: ["BoardCore", "MotorWire", "TestSupport"]),
        .testTarget(name: "EmbeddedTests", dependencies: ["TestSupport"]),
        .testTarget(name: "SerialLinkTests", dependencies: ["TestSupport", "SerialLink", "MotorSession", "MotorWire"]),
        .testTarget(name: "PreferencesTests", dependencies: ["TestSupport", "Preferences"]),
        .testTarget(name: "CalibrationTests", dependencies: ["TestSupport", "Calibration", "Breath", "BoardAccess", "MotorSession", "SimBoard", "MotorPhysics"]),
        // The physical motors, the vibration analysis and motor identification (issue 41), in process.
        .testTarget(name: "MotorPhysicsTests", dependencies: ["TestSupport", "MotorPhysics", "Breath"]),
        .testTarget(name: "BreathTests", dependencies: ["Breath", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SimBoardTests", dependencies: ["TestSupport", "BoardAccess", "SimBoard", "MotorSession", "Breath", "MotorWire", "MotorPhysics", "BoardConformance", "BoardCore"]),
        // The player's parts on their own (send window, repair guards, line budget, duty check, clock-sync
        // scheduling), table-driven, CPU only.
        .testTarget(name: "MotorSessionTests", dependencies: ["TestSupport", "MotorSession", "MotorWire", "Breath"]),
        // The playback layer every command runs, in virtual time: true-clock reports, breath time, one board
        // and several, the stage's errors, the end line.
        .testTarget(name: "PlaybackTests", dependencies: ["TestSupport", "Playback", "MotorSession", "SimBoard", "SerialLink", "Breath"]),
        .testTarget(name: "TimingTests", dependencies: ["TestSupport", "BoardAccess", "TimingBench", "SimBoard", "MotorSession", "Breath", "MotorWire", "SerialLink"]),
        // A real board on MOTORBREATH_BENCH_PORT (skipped, with a message, when it is not set).
        .testTarget(name: "BenchHardwareTests", dependencies: ["TestSupport", "MotorSession", "SerialLink", "MotorWire"]),
        // hardware/: the guides' netlists, wiring tables and udev rules against the firmware's pins; and a ///
        // comment on every public type in Sources/ (files only).
        .testTarget(name: "HardwareGuideTests", dependencies: ["TestSupport"]),
        .testTarget(name: "DoctorTests", dependencies: ["Doctor", "TestSupport", "SerialLink"]),
        // The firmware in QEMU (needs qemu-system-arm, socat, gcc-arm-none-eabi: .ci/install).
        .testTarget(
            name: "EmulatedBoardTests",
            dependencies: ["MotorSession", "SerialLink", "Breath", "MotorWire", "motorbreath", "TestSupport"]
        ),
        // The ATmega328P firmware in simavr, judged at its PWM pin (needs gcc-avr, avr-libc, libsimavr-dev:
        // .ci/install; hardware/avr's Makefile builds it).
        .testTarget(
            name: "AVRBoardTests",
            dependencies: ["MotorSession", "SerialLink", "Breath", "MotorWire", "BoardCore", "motorbreath", "TestSupport"]
        ),
        // Command lines parsed in process: every typed option's values, range edges and error lines.
        .testTarget(
            name: "OptionTests",
            dependencies: ["TestSupport", "motorbreath", "Breath", "SimBoard", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // `motorbreath serve`: the guard's rules (fast), the page's schedule against a board and the page in
        // headless Chromium (real time; node, python3 with selenium, chromium and chromium-driver: .ci/install).
        // The control protocol's messages on their own: the typed commands and events, docs/control.md's
        // field tables and docs/control.schema.json against them, answers unchanged by the typing (CPU only).
        .testTarget(name: "MotorControlTests", dependencies: ["TestSupport", "MotorControl", "MotorSession", "Breath"], exclude: ["Fixtures"]),
        .testTarget(name: "ServeTests", dependencies: ["BreathWeb", "MotorControl", "MotorSession", "Breath", "TestSupport"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["MotorSession", "MotorControl", "SimBoard", "SerialLink", "Breath", "MotorWire", "motorbreath", "TestSupport", "TimingBench", "Playback", "LiveText", "MotorPhysics"]
        ),
    ]
)
