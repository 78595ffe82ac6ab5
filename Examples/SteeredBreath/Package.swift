// swift-tools-version:6.0
// An app built on motorbreath's library products: a breath on the simulated board through the playback
// layer, steered at a breath time while it plays, judged on the board's own drive record.
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

let package = Package(
    name: "SteeredBreath",
    dependencies: [
        .package(name: "motorbreath", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "SteeredBreath",
            dependencies: [
                .product(name: "Breath", package: "motorbreath"),
                .product(name: "MotorSession", package: "motorbreath"),
                .product(name: "SimBoard", package: "motorbreath"),
                .product(name: "SerialLink", package: "motorbreath"),
                .product(name: "Playback", package: "motorbreath"),
            ]
        ),
    ]
)
