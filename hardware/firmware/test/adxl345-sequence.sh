#!/usr/bin/env bash
# Host check of the STM32 firmware's ADXL345 driver (Sources/Adxl345.swift): compiles it with the host's
# swiftc beside Adxl345SequenceCheck.swift and BoardCore's SensorPort.swift, runs it. A few seconds.
#
#   hardware/firmware/test/adxl345-sequence.sh
# SPDX-License-Identifier: Apache-2.0
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
swiftc -parse-as-library -o "$out/check" "$here/Adxl345SequenceCheck.swift" "$here/../Sources/Adxl345.swift" \
    "$root/Sources/BoardCore/SensorPort.swift"
"$out/check"
