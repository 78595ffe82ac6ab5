/* CSerialPort: exposes libserialport (Debian: libserialport-dev) to Swift. */
#include <libserialport.h>
