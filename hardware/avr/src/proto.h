// Dispatching a received host message: payload checks (protocol section 2, step 5), then the stream
// (play.c), then the reply (protocol decisions: which messages get STATUS, NAK or both).
// SPDX-License-Identifier: Apache-2.0
#ifndef PROTO_H
#define PROTO_H

#include <stdint.h>

#include "link.h"

void proto_handle(const message *m);

#endif
