// The links' clocks, locks and threads come from HostPlatform; code that imports SerialLink sees them too.

@_exported import HostPlatform
