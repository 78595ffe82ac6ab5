// Protocol constants for the C firmware, GENERATED from the Swift wire tables (Sources/MotorWire) by
// Tests/AVRBoardTests/WireHeader.swift: do not edit. After changing MotorWire, regenerate with
//   MOTORBREATH_WRITE_WIRE_HEADER=1 swift test --skip-build --filter WireHeaderTests
// (WireHeaderTests fails, naming the constant, while this file differs from what MotorWire says.)
// SPDX-License-Identifier: Apache-2.0
#ifndef WIRE_GEN_H
#define WIRE_GEN_H

// Frame layout (protocol.md section 2; Wire).
#define WIRE_VERSION 1
#define WIRE_REVISION_MAX 5
#define WIRE_HEADER_SIZE 4
#define WIRE_CRC_SIZE 2
#define WIRE_MAX_PAYLOAD 240
#define WIRE_MAX_RAW_FRAME 246
#define WIRE_MAX_ENCODED 247
#define WIRE_DELIMITER 0x00
#define CRC16_INIT 0xFFFFu

// Message type codes (section 4; MessageType).
#define MSG_HELLO 0x01
#define MSG_CONFIGURE 0x02
#define MSG_CLOCK_REQUEST 0x03
#define MSG_FRAMES 0x04
#define MSG_START 0x05
#define MSG_STOP 0x06
#define MSG_HEARTBEAT 0x07
#define MSG_LIMITS_REQUEST 0x08
#define MSG_REPLACE 0x09
#define MSG_SENSE 0x0A
#define MSG_INFO 0x81
#define MSG_CLOCK 0x83
#define MSG_STATUS 0x84
#define MSG_NAK 0x85
#define MSG_PLAYED 0x86
#define MSG_LIMITS 0x87
#define MSG_SENSOR 0x88
#define MSG_SAMPLES 0x89

// NAK codes (NakCode).
#define NAK_BAD_MESSAGE 1
#define NAK_GAP 2
#define NAK_BUFFER_FULL 3
#define NAK_NOT_CONFIGURED 4
#define NAK_BAD_CONFIG 5
#define NAK_UNKNOWN_TYPE 6

// STATUS states (BoardState).
#define STATE_IDLE 0
#define STATE_CONFIGURED 1
#define STATE_ARMED 2
#define STATE_PLAYING 3
#define STATE_FAILSAFE 4

// Duty formats (DutyFormat).
#define FMT_U8 1
#define FMT_U16 2
#define FMT_I16 3
#define FRAMES_MAX_U8 234
#define FRAMES_MAX_U16 117
#define FRAMES_MAX_I16 117

// CONFIGURE flags, STOP index.
#define CONFIGURE_FLAG_ALLOW_REVERSE 0x01
#define STOP_NOW 0xFFFFFFFFUL

// INFO motor kinds and capability bits (MotorKind, Info).
#define MOTOR_ERM 0
#define MOTOR_LRA 1
#define CAP_REVERSE 0x01
#define CAP_LRA_CARRIER 0x02
#define CAP_LIMITS 0x04
#define CAP_REPLACE 0x08
#define CAP_SENSOR 0x10
#define BOARD_NAME_CAPACITY 32

// Payload sizes in bytes (what MotorWire encodes).
#define SIZE_HELLO 0
#define SIZE_HELLO_REVISION 1
#define SIZE_CONFIGURE 10
#define SIZE_CLOCK_REQUEST 4
#define SIZE_FRAMES_HEADER 6
#define SIZE_START 20
#define SIZE_STOP 4
#define SIZE_HEARTBEAT 0
#define SIZE_LIMITS_REQUEST 0
#define SIZE_INFO_FIXED 28
#define SIZE_CLOCK 12
#define SIZE_STATUS 42
#define SIZE_STATUS_LOST 46
#define STATUS_LOST_REVISION 3
#define SIZE_NAK 7
#define SIZE_PLAYED 22
#define SIZE_LIMITS 12
#define SIZE_SENSE 4
#define SIZE_SENSOR 16
#define SIZE_SAMPLES_HEADER 12
#define SAMPLES_MAX_VALUES 114

#endif
