// swift-tools-version:6.0
// An app that serves motorbreath's control protocol (docs/control.md) from its own playback, and a client
// in the same process that speaks it with the typed messages.
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

let package = Package(
    name: "ServedBreath",
    dependencies: [
        .package(name: "motorbreath", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "ServedBreath",
            dependencies: [
                .product(name: "Breath", package: "motorbreath"),
                .product(name: "MotorControl", package: "motorbreath"),
                .product(name: "SimBoard", package: "motorbreath"),
                .product(name: "Playback", package: "motorbreath"),
            ]
        ),
    ]
)
