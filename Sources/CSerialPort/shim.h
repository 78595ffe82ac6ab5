// SPDX-License-Identifier: Apache-2.0
/* CSerialPort: exposes libserialport (Debian: libserialport-dev) to Swift. */
#include <libserialport.h>
