// Lists the serial ports libserialport can see, with their USB identity where they have one.
// SPDX-License-Identifier: Apache-2.0

import CSerialPort

/// One serial port on this machine.
public struct PortInfo: Sendable, Codable, Equatable {
    public var path: String
    public var description: String
    public var transport: String
    public var usbVID: String?
    public var usbPID: String?
    public var manufacturer: String?
    public var product: String?
    public var serialNumber: String?

    enum CodingKeys: String, CodingKey {
        case path, description, transport, usbVID = "usb_vid", usbPID = "usb_pid", manufacturer, product
        case serialNumber = "serial_number"
    }
}

/// Lists the serial ports libserialport can see, sorted by path, with their USB identity (vendor and
/// product ids, manufacturer, product, serial number) where they have one.
///
///     for port in try PortDiscovery.list() {
///         print(port.path, port.usbVID ?? "-", port.product ?? port.description)
///     }
public enum PortDiscovery {
    /// Every port libserialport enumerates (virtual ttys and ptys are not listed), sorted by path.
    public static func list() throws(LinkError) -> [PortInfo] {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        let r = sp_list_ports(&list)
        guard r == SP_OK, let list else {
            throw LinkError.os(path: "serial ports", operation: "list", errno: sp_last_error_code(),
                               message: "libserialport could not enumerate ports")
        }
        defer { sp_free_port_list(list) }
        var ports: [PortInfo] = []
        var i = 0
        while let p = list[i] {
            i += 1
            func text(_ c: UnsafeMutablePointer<CChar>?) -> String? { c.map { String(cString: $0) } }
            var info = PortInfo(path: text(sp_get_port_name(p)) ?? "?", description: text(sp_get_port_description(p)) ?? "",
                                transport: "native")
            switch sp_get_port_transport(p) {
            case SP_TRANSPORT_USB:
                info.transport = "usb"
                var vid: Int32 = 0, pid: Int32 = 0
                if sp_get_port_usb_vid_pid(p, &vid, &pid) == SP_OK {
                    info.usbVID = hex4(vid)
                    info.usbPID = hex4(pid)
                }
                info.manufacturer = text(sp_get_port_usb_manufacturer(p))
                info.product = text(sp_get_port_usb_product(p))
                info.serialNumber = text(sp_get_port_usb_serial(p))
            case SP_TRANSPORT_BLUETOOTH:
                info.transport = "bluetooth"
            default:
                break
            }
            if !info.path.hasPrefix("/") { info.path = "/dev/" + info.path }
            ports.append(info)
        }
        return ports.sorted { $0.path < $1.path }
    }

    static func hex4(_ v: Int32) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
