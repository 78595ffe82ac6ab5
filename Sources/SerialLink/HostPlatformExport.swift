// The links' clocks, locks and threads come from HostPlatform; code that imports SerialLink sees them too.
// SPDX-License-Identifier: Apache-2.0

@_exported import HostPlatform
